import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { createOAuthClient, deleteOAuthClient, listOAuthClients, type OAuthClient, regenerateOAuthClientSecret } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { createdColumn, nameColumn, scopesColumn } from '../../components/columns';
import { CopyButton } from '../../components/copy-button';
import { type Column, DataTable } from '../../components/data-table';
import { CheckboxGroup, fieldErrors, TextField } from '../../components/form';
import { Pager } from '../../components/pager';
import { MutationForm, RowButton, SectionList, SectionPage, useConfirmed, useSection } from '../../components/section';
import { ShownOnce } from '../../components/shown-once';
import { linesOf, TextAreaField } from '../../components/text-area';
import { type Scope, SCOPE_OPTIONS } from '../tokens/scopes';

const PAGE_SIZE = 20;
const APPS = ['oauth-apps'] as const;

interface Secret {
  title: string;
  clientId: string;
  clientSecret: string;
}

function CreateAppForm({ onCreated, onCancel }: { onCreated: (secret: Secret) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<string[]>(['links:read']);
  const [redirectUris, setRedirectUris] = useState('');
  const create = useMutation({
    mutationFn: () =>
      answer(
        createOAuthClient({
          client,
          body: {
            name: name.trim(),
            scopes: scopes as Scope[],
            redirectUris: linesOf(redirectUris),
            ...(description.trim() ? { description: description.trim() } : {}),
          },
        }),
      ),
    onSuccess: (created) =>
      onCreated({
        title: `The secret of "${created.data.name}"`,
        clientId: created.data.clientId,
        clientSecret: created.data.clientSecret ?? '',
      }),
  });
  const errors = fieldErrors(create.error);
  return (
    <MutationForm
      title="New OAuth app"
      action={create}
      shown={['name', 'description', 'redirectUris', 'scopes']}
      submitLabel="Create app"
      busyLabel="Creating…"
      onCancel={onCancel}
    >
      <TextField
        label="Name"
        name="name"
        required
        autoFocus
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors['name']}
        hint="People see it when the app asks to use their account."
      />
      <TextField
        label="Description (optional)"
        name="description"
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={errors['description']}
      />
      <TextAreaField
        label="Redirect URIs"
        name="redirectUris"
        rows={3}
        value={redirectUris}
        onChange={(e) => setRedirectUris(e.target.value)}
        error={errors['redirectUris']}
        hint="One a line: where the authorization page may send people back with a code. Exact addresses only."
      />
      <CheckboxGroup
        legend="What it may ask for"
        name="scopes"
        options={SCOPE_OPTIONS}
        value={scopes}
        onChange={setScopes}
        error={errors['scopes']}
      />
    </MutationForm>
  );
}

export function OAuthAppsPage() {
  const section = useSection({ key: APPS, pageSize: PAGE_SIZE, load: (page) => answer(listOAuthClients({ client, query: page })) });
  const [secret, setSecret] = useState<Secret | null>(null);
  const rotate = useConfirmed({
    run: (app: OAuthClient) => answer(regenerateOAuthClientSecret({ client, path: { id: app.id } })),
    done: (rotated) =>
      setSecret({
        title: `The new secret of "${rotated.data.name}"`,
        clientId: rotated.data.clientId,
        clientSecret: rotated.data.clientSecret,
      }),
  });
  const remove = useConfirmed({
    run: (app: OAuthClient) => answer(deleteOAuthClient({ client, path: { id: app.id } })),
    done: (_answer, app) => section.removed(`"${app.name}" is deleted: its secret and the tokens issued to it no longer work.`),
  });
  const columns: Column<OAuthClient>[] = [
    nameColumn(),
    { header: 'Client ID', cell: (app) => <code>{app.clientId}</code> },
    scopesColumn(),
    { header: 'Redirect URIs', cell: (app) => (app.redirectUris.length ? app.redirectUris.join(' ') : 'None') },
    createdColumn(),
    {
      header: 'Actions',
      cell: (app) => (
        <div className="row-actions">
          <RowButton
            label="New secret"
            of={`for ${app.name}`}
            onClick={() => {
              rotate.ask(app);
              section.setNotice('');
            }}
          />
          <RowButton label="Delete" of={app.name} danger onClick={() => remove.ask(app)} />
        </div>
      ),
    },
  ];
  return (
    <SectionPage
      section={section}
      title="OAuth apps"
      createLabel="Create app"
      canCreate={!secret}
      intro="Apps you build that ask people (you or others) to use their lnk account, through the authorization page."
    >
      {secret && (
        <ShownOnce title={secret.title} value={secret.clientSecret} onDone={() => setSecret(null)}>
          <p>
            Its client ID: <code data-testid="client-id">{secret.clientId}</code>{' '}
            <CopyButton value={secret.clientId} label="Copy client ID" />
          </p>
        </ShownOnce>
      )}
      {section.creating && (
        <CreateAppForm
          onCancel={section.stopCreating}
          onCreated={(created) => {
            section.created();
            setSecret(created);
          }}
        />
      )}
      <SectionList
        section={section}
        loading="Loading your apps"
        empty={{
          title: 'No OAuth apps yet',
          createLabel: 'Create your first app',
          text: 'Create an app to let a program sign people in with lnk. For your own scripts, an API token is simpler.',
        }}
      >
        <DataTable caption="Your OAuth apps" rows={section.rows} rowKey={(app) => app.id} columns={columns} />
        <Pager label="App pages" {...section.pager} />
      </SectionList>
      <ConfirmDialog {...rotate.dialog} title={`A new secret for "${rotate.target?.name ?? ''}"?`} confirmLabel="Make a new secret">
        <p>The current secret stops working at once: the app needs the new one before it can sign anyone in again.</p>
      </ConfirmDialog>
      <ConfirmDialog {...remove.dialog} title={`Delete "${remove.target?.name ?? ''}"?`} confirmLabel="Delete">
        <p>The app and every token issued to it stop working. This cannot be undone.</p>
      </ConfirmDialog>
    </SectionPage>
  );
}
