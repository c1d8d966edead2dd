import { type FormEvent, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createPersonalAccessToken, listPersonalAccessTokens, type PersonalAccessToken, revokeAllPersonalAccessTokens, revokePersonalAccessToken } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CurrentPasswordField, useCurrentPassword } from '../../components/current-password';
import { DataTable } from '../../components/data-table';
import { CheckboxGroup, fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { ShownOnce } from '../../components/shown-once';
import { EmptyState, ErrorState, Loading } from '../../components/states';
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
          body: { name, scopes: scopes as Scope[], ...(description ? { description } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}), ...password.proof() },
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="create-token-title">
      <h2 id="create-token-title">New token</h2>
      <TextField label="Name" name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={errors['name']} hint="What uses it, so you know which to revoke later." />
      <TextField label="Description (optional)" name="description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} error={errors['description']} />
      <CheckboxGroup legend="What it may do" name="scopes" options={SCOPE_OPTIONS} value={scopes} onChange={setScopes} error={errors['scopes']} />
      <TextField label="Expires on (optional)" name="expiresAt" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} error={errors['expiresAt']} hint="Left empty, it works until you revoke it." />
      <CurrentPasswordField state={password} error={errors['currentPassword']} />
      <FormError error={create.error} shown={['name', 'description', 'scopes', 'expiresAt', 'currentPassword']} />
      <div className="buttons">
        <SubmitButton busy={create.isPending} busyLabel="Creating…">
          {password.asked ? 'Confirm and create' : 'Create token'}
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function TokensPage() {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(0);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ value: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<PersonalAccessToken | null>(null);
  const [revokingAll, setRevokingAll] = useState(false);
  const [notice, setNotice] = useState('');
  const tokens = useQuery({
    queryKey: [...TOKENS, start],
    queryFn: () => answer(listPersonalAccessTokens({ client, query: { start, limit: PAGE_SIZE } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: TOKENS });
  const revoke = useMutation({
    mutationFn: (token: PersonalAccessToken) => answer(revokePersonalAccessToken({ client, path: { id: token.id } })),
    onSuccess: (_answer, token) => {
      setRevoking(null);
      setNotice(`"${token.name}" is revoked: it no longer works.`);
      return refresh();
    },
  });
  const revokeAll = useMutation({
    mutationFn: () => answer(revokeAllPersonalAccessTokens({ client })),
    onSuccess: (done) => {
      setRevokingAll(false);
      setNotice(done.message);
      setStart(0);
      return refresh();
    },
  });

  const total = tokens.data?.meta.total ?? 0;
  const rows = tokens.data?.data ?? [];
  return (
    <Page
      title="API tokens"
      intro="Personal access tokens let scripts and other programs call the API as you, with the scopes you give them."
      actions={
        !creating && !created ? (
          <button type="button" className="primary" onClick={() => { setCreating(true); setNotice(''); }}>
            Create token
          </button>
        ) : undefined
      }
    >
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {created && (
        <ShownOnce title={`Your new token "${created.name}"`} value={created.value} onDone={() => setCreated(null)}>
          <p>
            Send it as <code>Authorization: Bearer …</code> with each request.
          </p>
        </ShownOnce>
      )}
      {creating && (
        <CreateTokenForm
          onCancel={() => setCreating(false)}
          onCreated={(value, name) => {
            setCreating(false);
            setCreated({ value, name });
            setStart(0);
            void refresh();
          }}
        />
      )}
      {tokens.isPending ? (
        <Loading what="Loading your tokens" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} retry={() => void tokens.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No tokens yet"
          action={
            !creating && (
              <button type="button" className="primary" onClick={() => setCreating(true)}>
                Create your first token
              </button>
            )
          }
        >
          Create a token to call the API from a script or another service. You choose what it may do, and can revoke it at any time.
        </EmptyState>
      ) : (
        <section aria-labelledby="tokens-list-title">
          <h2 id="tokens-list-title">Your tokens ({total})</h2>
          <DataTable
            caption="Your personal access tokens"
            rows={rows}
            rowKey={(token) => token.id}
            columns={[
              { header: 'Name', cell: (token) => <strong>{token.name}</strong> },
              { header: 'Scopes', cell: (token) => <span className="scopes">{token.scopes.join(' ')}</span> },
              { header: 'Expires', cell: (token) => dayOf(token.expiresAt) },
              { header: 'Last used', cell: (token) => dayOf(token.lastUsedAt, 'Not yet') },
              { header: 'Created', cell: (token) => dayOf(token.createdAt) },
              {
                header: 'Actions',
                cell: (token) => (
                  <button type="button" className="danger" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                    Revoke
                  </button>
                ),
              },
            ]}
          />
          <Pager label="Token pages" start={start} limit={PAGE_SIZE} total={total} onStart={setStart} />
          <p>
            <button type="button" className="danger" onClick={() => setRevokingAll(true)}>
              Revoke all tokens
            </button>
          </p>
        </section>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke "${revoking?.name ?? ''}"?`}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onCancel={() => { setRevoking(null); revoke.reset(); }}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      >
        <p>Whatever uses it stops working at once. This cannot be undone.</p>
        {revoke.error ? <p className="form-error" role="alert">{plainMessage(revoke.error)}</p> : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={revokingAll}
        title="Revoke all your tokens?"
        confirmLabel="Revoke all"
        busy={revokeAll.isPending}
        onCancel={() => { setRevokingAll(false); revokeAll.reset(); }}
        onConfirm={() => revokeAll.mutate()}
      >
        <p>Every personal access token stops working at once. Your dashboard session is not affected.</p>
        {revokeAll.error ? <p className="form-error" role="alert">{plainMessage(revokeAll.error)}</p> : null}
      </ConfirmDialog>
    </Page>
  );
}
