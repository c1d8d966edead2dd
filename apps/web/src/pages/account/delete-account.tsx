import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { deleteAccount } from '@lnk/sdk';
import { client, session } from '../../api/client';
import { answer } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { fieldErrors, FormError, TextField } from '../../components/form';

/** Deleting the account: always with the password (re-authentication), after a confirmation. */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const [currentPassword, setCurrentPassword] = useState('');
  const remove = useMutation({
    mutationFn: () => answer(deleteAccount({ client, body: { currentPassword } })),
    // Its tokens are gone with it: the session ends here too.
    onSuccess: () => session.signOut(),
  });
  const errors = fieldErrors(remove.error);
  return (
    <section className="card danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete your account</h2>
      <p>Your links, domains, tags, statistics, tokens and webhooks are deleted with it. This cannot be undone.</p>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Delete account…
      </button>
      <ConfirmDialog
        open={open}
        title="Delete your account for good?"
        confirmLabel="Delete my account"
        busy={remove.isPending}
        onCancel={() => { setOpen(false); setCurrentPassword(''); remove.reset(); }}
        onConfirm={() => remove.mutate()}
      >
        <TextField label="Your current password" name="deletePassword" type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} error={errors['currentPassword']} />
        <FormError error={remove.error} shown={['currentPassword']} />
      </ConfirmDialog>
    </section>
  );
}
