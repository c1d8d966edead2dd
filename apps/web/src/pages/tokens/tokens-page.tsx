import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  createPersonalAccessToken,
  listPersonalAccessTokens,
  type PersonalAccessToken,
  revokeAllPersonalAccessTokens,
  revokePersonalAccessToken,
} from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { createdColumn, nameColumn, scopesColumn } from '../../components/columns';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CurrentPasswordField, useCurrentPassword } from '../../components/current-password';
import { type Column, DataTable } from '../../components/data-table';
import { CheckboxGroup, fieldErrors, TextField } from '../../components/form';
import { Pager } from '../../components/pager';
import { MutationForm, SectionList, SectionPage, useConfirmed, useSection } from '../../components/section';
import { ShownOnce } from '../../components/shown-once';
import { dayOf, expiryOf, type Scope, SCOPE_OPTIONS } from './scopes';

const PAGE_SIZE = 20;
const TOKENS = ['tokens'] as const;

function CreateTokenForm({ onCreated, onCancel }: { onCreated: (value: string, name: string) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<string[]>(['links:read', 'links:write']);
  const [expires, setExpires] = useState('');
  const password = useCurrentPassword();
  const create = useMutation({
    mutationFn: () => {
      const expiresAt = expiryOf(expires);
      return answer(
        createPersonalAccessToken({
          client,
          body: {
            name,
            scopes: scopes as Scope[],
            ...(description ? { description } : {}),
            ...(expiresAt !== undefined ? { expiresAt } : {}),
            ...password.proof(),
          },
        }),
      );
    },
    onError: (error) => password.refused(error),
    onSuccess: (created) => {
      password.reset();
      onCreated(created.data.token, created.data.name);
    },
  });
  const errors = fieldErrors(create.error);
  return (
    <MutationForm
      title="New token"
      action={create}
      shown={['name', 'description', 'scopes', 'expiresAt', 'currentPassword']}
      submitLabel={password.asked ? 'Confirm and create' : 'Create token'}
      busyLabel="Creating…"
      onCancel={onCancel}
    >
      <TextField
        label="Name"
        name="name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors['name']}
        hint="What uses it, so you know which to revoke later."
      />
      <TextField
        label="Description (optional)"
        name="description"
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={errors['description']}
      />
      <CheckboxGroup
        legend="What it may do"
        name="scopes"
        options={SCOPE_OPTIONS}
        value={scopes}
        onChange={setScopes}
        error={errors['scopes']}
      />
      <TextField
        label="Expires on (optional)"
        name="expiresAt"
        type="date"
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
        error={errors['expiresAt']}
        hint="Left empty, it works until you revoke it."
      />
      <CurrentPasswordField state={password} error={errors['currentPassword']} />
    </MutationForm>
  );
}

export function TokensPage() {
  const section = useSection({
    key: TOKENS,
    pageSize: PAGE_SIZE,
    load: (page) => answer(listPersonalAccessTokens({ client, query: page })),
  });
  const [created, setCreated] = useState<{ value: string; name: string } | null>(null);
  const revoke = useConfirmed({
    run: (token: PersonalAccessToken) => answer(revokePersonalAccessToken({ client, path: { id: token.id } })),
    done: (_answer, token) => {
      section.setNotice(`"${token.name}" is revoked: it no longer works.`);
      return section.refresh();
    },
  });
  const revokeAll = useConfirmed({
    run: () => answer(revokeAllPersonalAccessTokens({ client })),
    done: (done) => {
      section.setNotice(done.message);
      section.setStart(0);
      return section.refresh();
    },
  });
  const columns: Column<PersonalAccessToken>[] = [
    nameColumn(),
    scopesColumn(),
    { header: 'Expires', cell: (token) => dayOf(token.expiresAt) },
    { header: 'Last used', cell: (token) => dayOf(token.lastUsedAt, 'Not yet') },
    createdColumn(),
    {
      header: 'Actions',
      cell: (token) => (
        <button type="button" className="danger" onClick={() => revoke.ask(token)} aria-label={`Revoke ${token.name}`}>
          Revoke
        </button>
      ),
    },
  ];
  return (
    <SectionPage
      section={section}
      title="API tokens"
      createLabel="Create token"
      canCreate={!created}
      intro="Personal access tokens let scripts and other programs call the API as you, with the scopes you give them."
    >
      {created && (
        <ShownOnce title={`Your new token "${created.name}"`} value={created.value} onDone={() => setCreated(null)}>
          <p>
            Send it as <code>Authorization: Bearer …</code> with each request.
          </p>
        </ShownOnce>
      )}
      {section.creating && (
        <CreateTokenForm
          onCancel={section.stopCreating}
          onCreated={(value, name) => {
            section.created();
            setCreated({ value, name });
          }}
        />
      )}
      <SectionList
        section={section}
        loading="Loading your tokens"
        empty={{
          title: 'No tokens yet',
          createLabel: 'Create your first token',
          text:
            'Create a token to call the API from a script or another service. You ' +
            'choose what it may do, and can revoke it at any time.',
        }}
      >
        <section aria-labelledby="tokens-list-title">
          <h2 id="tokens-list-title">Your tokens ({section.total})</h2>
          <DataTable caption="Your personal access tokens" rows={section.rows} rowKey={(token) => token.id} columns={columns} />
          <Pager label="Token pages" {...section.pager} />
          <p>
            <button type="button" className="danger" onClick={() => revokeAll.ask(true)}>
              Revoke all tokens
            </button>
          </p>
        </section>
      </SectionList>
      <ConfirmDialog {...revoke.dialog} title={`Revoke "${revoke.target?.name ?? ''}"?`} confirmLabel="Revoke">
        <p>Whatever uses it stops working at once. This cannot be undone.</p>
      </ConfirmDialog>
      <ConfirmDialog {...revokeAll.dialog} title="Revoke all your tokens?" confirmLabel="Revoke all">
        <p>Every personal access token stops working at once. Your dashboard session is not affected.</p>
      </ConfirmDialog>
    </SectionPage>
  );
}
