import { type FormEvent, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createOAuthClient, deleteOAuthClient, listOAuthClients, type OAuthClient, regenerateOAuthClientSecret } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { DataTable } from '../../components/data-table';
import { CheckboxGroup, fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { ShownOnce } from '../../components/shown-once';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { linesOf, TextAreaField } from '../../components/text-area';
import { dayOf, type Scope, SCOPE_OPTIONS } from '../tokens/scopes';

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
          body: { name: name.trim(), scopes: scopes as Scope[], redirectUris: linesOf(redirectUris), ...(description.trim() ? { description: description.trim() } : {}) },
        }),
      ),
    onSuccess: (created) => onCreated({ title: `The secret of "${created.data.name}"`, clientId: created.data.clientId, clientSecret: created.data.clientSecret ?? '' }),
  });
  const errors = fieldErrors(create.error);
  return (
    <form className="card" onSubmit={(event: FormEvent) => { event.preventDefault(); create.mutate(); }} noValidate aria-labelledby="create-app-title">
      <h2 id="create-app-title">New OAuth app</h2>
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
      <FormError error={create.error} shown={['name', 'description', 'redirectUris', 'scopes']} />
      <div className="buttons">
        <SubmitButton busy={create.isPending} busyLabel="Creating…">
          Create app
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function OAuthAppsPage() {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(0);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<Secret | null>(null);
  const [rotating, setRotating] = useState<OAuthClient | null>(null);
  const [deleting, setDeleting] = useState<OAuthClient | null>(null);
  const [notice, setNotice] = useState('');
  const apps = useQuery({
    queryKey: [...APPS, start],
    queryFn: () => answer(listOAuthClients({ client, query: { start, limit: PAGE_SIZE } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: APPS });
  const rotate = useMutation({
    mutationFn: (app: OAuthClient) => answer(regenerateOAuthClientSecret({ client, path: { id: app.id } })),
    onSuccess: (rotated) => {
      setRotating(null);
      setSecret({ title: `The new secret of "${rotated.data.name}"`, clientId: rotated.data.clientId, clientSecret: rotated.data.clientSecret });
    },
  });
  const remove = useMutation({
    mutationFn: (app: OAuthClient) => answer(deleteOAuthClient({ client, path: { id: app.id } })),
    onSuccess: (_answer, app) => {
      setDeleting(null);
      // The last one of a later page: show the page before rather than an empty list.
      if (rows.length === 1 && start > 0) setStart(Math.max(0, start - PAGE_SIZE));
      setNotice(`"${app.name}" is deleted: its secret and the tokens issued to it no longer work.`);
      return refresh();
    },
  });
  const rows = apps.data?.data ?? [];
  const startCreating = () => {
    setCreating(true);
    setNotice('');
  };
  return (
    <Page
      title="OAuth apps"
      intro="Apps you build that ask people (you or others) to use their lnk account, through the authorization page."
      actions={
        !creating && !secret ? (
          <button type="button" className="primary" onClick={startCreating}>
            Create app
          </button>
        ) : undefined
      }
    >
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {secret && (
        <ShownOnce title={secret.title} value={secret.clientSecret} onDone={() => setSecret(null)}>
          <p>
            Its client ID: <code data-testid="client-id">{secret.clientId}</code> <CopyButton value={secret.clientId} label="Copy client ID" />
          </p>
        </ShownOnce>
      )}
      {creating && (
        <CreateAppForm
          onCancel={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setSecret(created);
            setStart(0);
            void refresh();
          }}
        />
      )}
      {apps.isPending ? (
        <Loading what="Loading your apps" />
      ) : apps.isError ? (
        <ErrorState error={apps.error} retry={() => void apps.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No OAuth apps yet"
          action={
            !creating && (
              <button type="button" className="primary" onClick={startCreating}>
                Create your first app
              </button>
            )
          }
        >
          Create an app to let a program sign people in with lnk. For your own scripts, an API token is simpler.
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Your OAuth apps"
            rows={rows}
            rowKey={(app) => app.id}
            columns={[
              { header: 'Name', cell: (app) => <strong>{app.name}</strong> },
              { header: 'Client ID', cell: (app) => <code>{app.clientId}</code> },
              { header: 'Scopes', cell: (app) => <span className="scopes">{app.scopes.join(' ')}</span> },
              { header: 'Redirect URIs', cell: (app) => (app.redirectUris.length ? app.redirectUris.join(' ') : 'None') },
              { header: 'Created', cell: (app) => dayOf(app.createdAt) },
              {
                header: 'Actions',
                cell: (app) => (
                  <div className="row-actions">
                    <button type="button" onClick={() => { setRotating(app); setNotice(''); }}>
                      New secret<span className="visually-hidden"> for {app.name}</span>
                    </button>
                    <button type="button" className="danger" onClick={() => setDeleting(app)}>
                      Delete<span className="visually-hidden"> {app.name}</span>
                    </button>
                  </div>
                ),
              },
            ]}
          />
          <Pager label="App pages" start={start} limit={PAGE_SIZE} total={apps.data?.meta.total ?? 0} onStart={setStart} />
        </>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title={`A new secret for "${rotating?.name ?? ''}"?`}
        confirmLabel="Make a new secret"
        busy={rotate.isPending}
        onCancel={() => { setRotating(null); rotate.reset(); }}
        onConfirm={() => rotating && rotate.mutate(rotating)}
      >
        <p>The current secret stops working at once: the app needs the new one before it can sign anyone in again.</p>
        {rotate.error ? (
          <p className="form-error" role="alert">
            {plainMessage(rotate.error)}
          </p>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => { setDeleting(null); remove.reset(); }}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        <p>The app and every token issued to it stop working. This cannot be undone.</p>
        {remove.error ? (
          <p className="form-error" role="alert">
            {plainMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}
