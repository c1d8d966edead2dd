import { useEffect } from 'react';

const FAILURES: Record<string, string> = {
  denied: 'The sign-in was cancelled. Sign in again when you are ready.',
  expired: 'That sign-in took too long or was started elsewhere. Start again.',
  failed: 'The sign-in did not go through. Start again.',
};

/**
 * Signed out: one button, which leaves the page for the service's own sign-in page (e-mail, password and,
 * when the account has it, a one-time code); the server keeps the session and sends the browser back.
 */
export function SignIn({ reason }: { reason?: 'ended' | 'signed-out' }) {
  useEffect(() => {
    document.title = 'Sign in · lnk';
  }, []);
  const params = new URLSearchParams(window.location.search);
  const failure = FAILURES[params.get('error') ?? ''];
  const here = window.location.pathname.startsWith('/app/sign-in') ? '/app/' : window.location.pathname + window.location.search;
  const href = `/app/auth/sign-in?return_to=${encodeURIComponent(here)}`;
  return (
    <main className="sign-in" id="main">
      <h1>Sign in to lnk</h1>
      {reason === 'signed-out' && <p role="status">You are signed out.</p>}
      {reason === 'ended' && <p role="status">Your session has ended. Sign in again to go on.</p>}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <p>Manage your short links, domains and tokens.</p>
      <a className="button primary" href={href}>
        Sign in
      </a>
    </main>
  );
}
