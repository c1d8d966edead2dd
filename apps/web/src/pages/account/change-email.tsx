import { useState } from 'react';
import { changeEmail } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { CurrentPasswordField, useCurrentPassword } from '../../components/current-password';
import { FormError, SubmitButton, TextField } from '../../components/form';
import { DoneNotice, useAccountChange } from './account-change';

export function ChangeEmail() {
  const [email, setEmail] = useState('');
  const password = useCurrentPassword();
  const { change, errors, done, submit } = useAccountChange(() => answer(changeEmail({ client, body: { email, ...password.proof() } })), {
    onError: (error) => password.refused(error),
    onDone: () => {
      password.reset();
      setEmail('');
    },
  });
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="email-title">
      <h2 id="email-title">Change your e-mail address</h2>
      <TextField
        label="New e-mail address"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors['email']}
        hint="You sign in with it from then on; we mail it a link to confirm it."
      />
      <CurrentPasswordField state={password} error={errors['currentPassword']} />
      <FormError error={change.error} shown={['email', 'currentPassword']} />
      <DoneNotice done={done} />
      <SubmitButton busy={change.isPending}>{password.asked ? 'Confirm and change' : 'Change e-mail address'}</SubmitButton>
    </form>
  );
}
