import { type ReactNode, useId } from 'react';
import { CopyButton } from './copy-button';

/**
 * A secret the service shows this one time (a token value, a client or webhook secret, backup codes):
 * it is not stored in a way that can be read again, so the page says so and offers to copy it.
 */
export function ShownOnce({ title, value, children, onDone }: { title: string; value: string; children?: ReactNode; onDone: () => void }) {
  const titleId = useId();
  return (
    <section className="shown-once" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p className="warning">Copy it now: it is shown this once and cannot be shown again.</p>
      <div className="secret-row">
        <code className="secret" data-testid="shown-once-value">
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      {children}
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
