import { type FormEvent, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { changePassword } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';

export function ChangePassword() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState('');
  const change = useMutation({
    mutationFn: () => answer(changePassword({ client, body: { currentPassword, newPassword } })),
    onSuccess: (changed) => {
      setCurrentPassword('');
      setNewPassword('');
      setRepeated('');
      setDone(changed.message);
    },
  });
  const errors = fieldErrors(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    // Checked here only because the API never sees the repetition.
    const differs = newPassword !== repeated;
    setMismatch(differs);
    if (!differs) change.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
        error={errors['currentPassword']}
      />
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        error={errors['newPassword']}
      />
      <TextField
        label="New password again"
        name="repeatedPassword"
        type="password"
        autoComplete="new-password"
        required
        value={repeated}
        onChange={(e) => setRepeated(e.target.value)}
        error={mismatch ? 'The two new passwords differ' : undefined}
      />
      <FormError error={change.error} shown={['currentPassword', 'newPassword']} />
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <p className="field-hint">Your other sessions are signed out and your personal access tokens revoked.</p>
      <SubmitButton busy={change.isPending}>Change password</SubmitButton>
    </form>
  );
}
