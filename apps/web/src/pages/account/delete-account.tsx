import { useState } from 'react';
import { deleteAccount } from '@lnk/sdk';
import { client, session } from '../../api/client';
import { answer } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { fieldErrors, FormError, TextField } from '../../components/form';
import { useConfirmed } from '../../components/section';

/** Deleting the account: always with the password (re-authentication), after a confirmation. */
export function DeleteAccount() {
  const [currentPassword, setCurrentPassword] = useState('');
  const remove = useConfirmed({
    run: () => answer(deleteAccount({ client, body: { currentPassword } })),
    // Its tokens are gone with it: the session ends here too.
    done: () => session.signOut(),
    onCancel: () => setCurrentPassword(''),
  });
  // The refusal shows beside the password field or under it, not a second time under the dialog's text.
  const { error, ...dialog } = remove.dialog;
  return (
    <section className="card danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete your account</h2>
      <p>Your links, domains, tags, statistics, tokens and webhooks are deleted with it. This cannot be undone.</p>
      <button type="button" className="danger" onClick={() => remove.ask(true)}>
        Delete account…
      </button>
      <ConfirmDialog {...dialog} title="Delete your account for good?" confirmLabel="Delete my account">
        <TextField
          label="Your current password"
          name="deletePassword"
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
          error={fieldErrors(error)['currentPassword']}
        />
        <FormError error={error} shown={['currentPassword']} />
      </ConfirmDialog>
    </section>
  );
}
