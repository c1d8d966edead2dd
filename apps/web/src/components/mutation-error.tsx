import { plainMessage } from '../api/errors';

/** What went wrong with an action (a mutation's error), in plain words, announced; nothing when all is well. */
export function MutationError({ error, prefix = '' }: { error: unknown; prefix?: string }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {prefix}
      {plainMessage(error)}
    </p>
  );
}
