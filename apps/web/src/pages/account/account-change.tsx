import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fieldErrors } from '../../components/form';

/** The account as the page reads it (GET /user/me): read again once a form changed it. */
export const ACCOUNT = ['account'] as const;

/**
 * A form of the account page that changes one thing: its mutation (`onDone` with the answer, then the
 * account is read again), the field errors of a refusal, the answer's message once done, and the submit.
 */
export function useAccountChange<T extends { message: string }>(
  run: () => Promise<T>,
  handlers: { onDone: (changed: T) => void; onError?: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState('');
  const change = useMutation({
    mutationFn: run,
    onError: handlers.onError,
    onSuccess: (changed) => {
      handlers.onDone(changed);
      setDone(changed.message);
      return queryClient.invalidateQueries({ queryKey: ACCOUNT });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    change.mutate();
  };
  return { change, errors: fieldErrors(change.error), done, submit };
}

/** The message of a change once made, announced. */
export function DoneNotice({ done }: { done: string }) {
  return done ? (
    <p className="notice" role="status">
      {done}
    </p>
  ) : null;
}
