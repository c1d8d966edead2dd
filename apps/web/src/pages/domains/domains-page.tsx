import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { addDomain, deleteDomain, type Domain, listDomains, verifyDomain } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { fieldErrors, TextField } from '../../components/form';
import { MutationError } from '../../components/mutation-error';
import { Pager } from '../../components/pager';
import { MutationForm, RowButton, SectionList, SectionPage, useConfirmed, useSection } from '../../components/section';
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
  return (
    <MutationForm title="Add a domain" action={add} shown={['name']} submitLabel="Add domain" busyLabel="Adding…" onCancel={onCancel}>
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
    </MutationForm>
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
          Your short links can use this domain{state.since ? ` (verified ${dayOf(state.since)})` : ''}. Keep both records below in place:
          the service checks them again from time to time.
        </p>
      )}
      {state.kind === 'pending' && (
        <p>Publish these records at your DNS provider, then verify. DNS changes can take a few minutes to be seen.</p>
      )}
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
      <MutationError error={verify.error} prefix="Not verified yet: " />
      <div className="buttons">
        {state.kind !== 'verified' && (
          <button type="button" className="primary" onClick={() => verify.mutate()} disabled={verify.isPending}>
            {verify.isPending ? 'Checking DNS…' : state.kind === 'lost' ? 'Verify again' : 'Verify'}
            <span className="visually-hidden"> {domain.name}</span>
          </button>
        )}
        <RowButton label="Delete" of={domain.name} danger onClick={onDelete} />
      </div>
    </section>
  );
}

export function DomainsPage() {
  const section = useSection({ key: DOMAINS, pageSize: PAGE_SIZE, load: (page) => answer(listDomains({ client, query: page })) });
  const remove = useConfirmed({
    run: (domain: Domain) => answer(deleteDomain({ client, path: { id: domain.id } })),
    done: (_answer, domain) => section.removed(`${domain.name} is deleted.`),
  });
  return (
    <SectionPage
      section={section}
      title="Domains"
      createLabel="Add domain"
      intro="Serve your short links from your own domain: add it, publish two DNS records, then verify."
    >
      {section.creating && (
        <AddDomainForm
          onCancel={section.stopCreating}
          onAdded={(domain) => {
            section.created();
            section.setNotice(`${domain.name} is added: publish its DNS records below, then verify.`);
          }}
        />
      )}
      <SectionList
        section={section}
        loading="Loading your domains"
        empty={{
          title: 'No domains yet',
          createLabel: 'Add your first domain',
          text: 'Add a domain you control (say go.example.com). The page then shows the DNS records to publish at your DNS provider.',
        }}
      >
        {section.rows.map((domain) => (
          <DomainCard key={domain.id} domain={domain} onDelete={() => remove.ask(domain)} onChanged={section.refresh} />
        ))}
        <Pager label="Domain pages" {...section.pager} />
      </SectionList>
      <ConfirmDialog {...remove.dialog} title={`Delete ${remove.target?.name ?? ''}?`} confirmLabel="Delete">
        <p>Short links stop answering on it. A domain that links still use cannot be deleted: move or delete those links first.</p>
      </ConfirmDialog>
    </SectionPage>
  );
}
