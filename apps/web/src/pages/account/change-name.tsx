import { useState } from 'react';
import { changeName } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { FormError, SubmitButton, TextField } from '../../components/form';
import { DoneNotice, useAccountChange } from './account-change';

/** The account's display name (PUT /user/me/name); the API checks it, and its refusal shows on the field. */
export function ChangeName({ current }: { current: string }) {
  const [name, setName] = useState(current);
  const { change, errors, done, submit } = useAccountChange(() => answer(changeName({ client, body: { name } })), {
    onDone: (changed) => setName(changed.data.name),
  });
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="name-title">
      <h2 id="name-title">Change your name</h2>
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        required
        maxLength={200}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors['name']}
      />
      <FormError error={change.error} shown={['name']} />
      <DoneNotice done={done} />
      <SubmitButton busy={change.isPending}>Change name</SubmitButton>
    </form>
  );
}
