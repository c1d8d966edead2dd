import { Component, type ErrorInfo, type ReactNode } from 'react';

/** A page that throws while rendering shows this instead of a blank screen; the navigation stays usable. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: string }) {
    // Moving to another page leaves the broken one behind.
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('dashboard page failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="state state-error" role="alert">
        <h1>Something went wrong on this page</h1>
        <p>The rest of the dashboard still works. Reload the page to try again.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
