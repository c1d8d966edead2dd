import { type FormEvent, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addDomain, deleteDomain, type Domain, listDomains, verifyDomain } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { dayOf } from '../tokens/scopes';
import { type DnsRow, domainState, recordsToPublish } from './records';

const PAGE_SIZE = 20;
const DOMAINS = ['domains'] as const;

function AddDomainForm({ onAdded, onCancel }: { onAdded: (domain: Domain) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: () => answer(addDomain({ client, body: { name: name.trim() } })),
    onSuccess: (added) => onAdded(added.data),
  });
  const errors = fieldErrors(add.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="add-domain-title">
      <h2 id="add-domain-title">Add a domain</h2>
      <TextField
        label="Domain name"
        name="name"
        required
        autoFocus
        placeholder="go.example.com"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors['name']}
        hint="A name you control in DNS. Your short links can use it once it is verified."
      />
      <FormError error={add.error} shown={['name']} />
      <div className="buttons">
        <SubmitButton busy={add.isPending} busyLabel="Adding…">
          Add domain
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RecordRows({ rows, caption }: { rows: readonly DnsRow[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table className="data-table dns-records">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.type} ${row.name} ${row.value}`}>
              <td data-label="Type">{row.type}</td>
              <td data-label="Name">
                <code>{row.name}</code> <CopyButton value={row.name} label={`Copy name`} />
              </td>
              <td data-label="Value">
                <code>{row.value}</code> <CopyButton value={row.value} label={`Copy value`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One domain: where it stands, the records to publish (until it is verified), verify and delete. */
function DomainCard({ domain, onDelete, onChanged }: { domain: Domain; onDelete: () => void; onChanged: () => Promise<unknown> }) {
  const state = domainState(domain);
  const records = recordsToPublish(domain);
  const verify = useMutation({
    mutationFn: () => answer(verifyDomain({ client, path: { id: domain.id } })),
    onSuccess: () => onChanged(),
  });
  const titleId = `domain-${domain.id}`;
  return (
    <section className="card domain" aria-labelledby={titleId}>
      <div className="card-head">
        <h2 id={titleId}>{domain.name}</h2>
        {state.kind === 'verified' && <span className="badge">Verified</span>}
        {state.kind === 'lost' && <span className="badge badge-bad">Verification lost</span>}
        {state.kind === 'pending' && <span className="badge badge-warn">Waiting for DNS</span>}
      </div>
      {state.kind === 'verified' && (
        <p>
          Your short links can use this domain{state.since ? ` (verified ${dayOf(state.since)})` : ''}. Keep both records below in place: the
          service checks them again from time to time.
        </p>
      )}
      {state.kind === 'pending' && <p>Publish these records at your DNS provider, then verify. DNS changes can take a few minutes to be seen.</p>}
      {state.kind === 'lost' && (
        <div className="state state-error" role="note">
          <p>
            <strong>Links on this domain stopped working on {dayOf(state.since)}.</strong> A check found a record gone: {state.reason}.
          </p>
          <p>Put the records below back in place, then verify again.</p>
        </div>
      )}
      <details open={state.kind !== 'verified'}>
        <summary>DNS records</summary>
        <h3>Route the name to the service</h3>
        <RecordRows rows={[records.route]} caption={`The record that routes ${domain.name}`} />
        {records.apex.length > 0 && (
          <>
            <p>Or, where a CNAME cannot stand (the bare domain, a zone apex), these address records instead:</p>
            <RecordRows rows={records.apex} caption={`The address records for ${domain.name} at a zone apex`} />
          </>
        )}
        <h3>Prove the name is yours</h3>
        <RecordRows rows={[records.proof]} caption={`The TXT record that proves ${domain.name} is yours`} />
      </details>
      {verify.isSuccess && (
        <p className="notice" role="status">
          {domain.name} is verified.
        </p>
      )}
      {verify.isError && (
        <p className="form-error" role="alert">
          Not verified yet: {plainMessage(verify.error)}
        </p>
      )}
      <div className="buttons">
        {state.kind !== 'verified' && (
          <button type="button" className="primary" onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? 'Checking DNS…' : state.kind === 'lost' ? 'Verify again' : 'Verify'}
            <span className="visually-hidden"> {domain.name}</span>
          </button>
        )}
        <button type="button" className="danger" onClick={onDelete}>
          Delete<span className="visually-hidden"> {domain.name}</span>
        </button>
      </div>
    </section>
  );
}

export function DomainsPage() {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Domain | null>(null);
  const [notice, setNotice] = useState('');
  const domains = useQuery({
    queryKey: [...DOMAINS, start],
    queryFn: () => answer(listDomains({ client, query: { start, limit: PAGE_SIZE } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: DOMAINS });
  const remove = useMutation({
    mutationFn: (domain: Domain) => answer(deleteDomain({ client, path: { id: domain.id } })),
    onSuccess: (_answer, domain) => {
      setDeleting(null);
      // The last one of a later page: show the page before rather than an empty list.
      if (rows.length === 1 && start > 0) setStart(Math.max(0, start - PAGE_SIZE));
      setNotice(`${domain.name} is deleted.`);
      return refresh();
    },
  });
  const rows = domains.data?.data ?? [];
  const startAdding = () => {
    setAdding(true);
    setNotice('');
  };
  return (
    <Page
      title="Domains"
      intro="Serve your short links from your own domain: add it, publish two DNS records, then verify."
      actions={
        !adding ? (
          <button type="button" className="primary" onClick={startAdding}>
            Add domain
          </button>
        ) : undefined
      }
    >
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {adding && (
        <AddDomainForm
          onCancel={() => setAdding(false)}
          onAdded={(domain) => {
            setAdding(false);
            setNotice(`${domain.name} is added: publish its DNS records below, then verify.`);
            setStart(0);
            void refresh();
          }}
        />
      )}
      {domains.isPending ? (
        <Loading what="Loading your domains" />
      ) : domains.isError ? (
        <ErrorState error={domains.error} retry={() => void domains.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No domains yet"
          action={
            !adding && (
              <button type="button" className="primary" onClick={startAdding}>
                Add your first domain
              </button>
            )
          }
        >
          Add a domain you control (say go.example.com). The page then shows the DNS records to publish at your DNS provider.
        </EmptyState>
      ) : (
        <>
          {rows.map((domain) => (
            <DomainCard key={domain.id} domain={domain} onDelete={() => setDeleting(domain)} onChanged={refresh} />
          ))}
          <Pager label="Domain pages" start={start} limit={PAGE_SIZE} total={domains.data?.meta.total ?? 0} onStart={setStart} />
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        <p>Short links stop answering on it. A domain that links still use cannot be deleted: move or delete those links first.</p>
        {remove.error ? (
          <p className="form-error" role="alert">
            {plainMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}
