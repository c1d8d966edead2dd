import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeEmail } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { CurrentPasswordField, useCurrentPassword } from '../../components/current-password';
import { fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';

export function ChangeEmail() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [done, setDone] = useState('');
  const password = useCurrentPassword();
  const change = useMutation({
    mutationFn: () => answer(changeEmail({ client, body: { email, ...password.proof() } })),
    onError: (error) => password.refused(error),
    onSuccess: (changed) => {
      password.reset();
      setEmail('');
      setDone(changed.message);
      return queryClient.invalidateQueries({ queryKey: ['account'] });
    },
  });
  const errors = fieldErrors(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    change.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="email-title">
      <h2 id="email-title">Change your e-mail address</h2>
      <TextField label="New e-mail address" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={errors['email']} hint="You sign in with it from then on; we mail it a link to confirm it." />
      <CurrentPasswordField state={password} error={errors['currentPassword']} />
      <FormError error={change.error} shown={['email', 'currentPassword']} />
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <SubmitButton busy={change.isPending}>{password.asked ? 'Confirm and change' : 'Change e-mail address'}</SubmitButton>
    </form>
  );
}
