import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeName } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';

/** The account's display name (PUT /user/me/name); the API checks it, and its refusal shows on the field. */
export function ChangeName({ current, account }: { current: string; account: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(current);
  const [done, setDone] = useState('');
  const change = useMutation({
    mutationFn: () => answer(changeName({ client, body: { name } })),
    onSuccess: (changed) => {
      setName(changed.data.name);
      setDone(changed.message);
      return queryClient.invalidateQueries({ queryKey: account });
    },
  });
  const errors = fieldErrors(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    change.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="name-title">
      <h2 id="name-title">Change your name</h2>
      <TextField label="Name" name="name" autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={errors['name']} />
      <FormError error={change.error} shown={['name']} />
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <SubmitButton busy={change.isPending}>Change name</SubmitButton>
    </form>
  );
}
