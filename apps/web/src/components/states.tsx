import type { ReactNode } from 'react';
import { plainMessage } from '../api/errors';

/** While something loads: said to screen readers too (a polite live region). */
export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

/** Something failed: what happened in plain words, and a way to try again. */
export function ErrorState({ error, retry, title = 'This could not be loaded' }: { error: unknown; retry?: () => void; title?: string }) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{title}</p>
      <p>{plainMessage(error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Nothing here yet: what it is for, and what to do first. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      <div>{children}</div>
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}
