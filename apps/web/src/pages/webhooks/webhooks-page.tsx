import { type FormEvent, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createWebhook, deleteWebhook, listWebhooks, rotateWebhookSecret, sendWebhookTestEvent, updateWebhook, type Webhook } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CheckboxGroup, fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { ShownOnce } from '../../components/shown-once';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { Deliveries, deliveriesKey } from './deliveries';
import { EVENT_LABELS, EVENT_OPTIONS, type WebhookEvent } from './events';

const PAGE_SIZE = 20;
const WEBHOOKS = ['webhooks'] as const;
/** How long the deliveries log looks again for a test event's delivery. */
const WATCH_AFTER_TEST_MS = 30_000;

function CreateWebhookForm({ onCreated, onCancel }: { onCreated: (url: string, secret: string) => void; onCancel: () => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['link.created', 'link.clicked']);
  const create = useMutation({
    mutationFn: () => answer(createWebhook({ client, body: { url: url.trim(), events: events as WebhookEvent[], ...(description.trim() ? { description: description.trim() } : {}) } })),
    onSuccess: (created) => onCreated(created.data.url, created.data.secret),
  });
  const errors = fieldErrors(create.error);
  return (
    <form className="card" onSubmit={(event: FormEvent) => { event.preventDefault(); create.mutate(); }} noValidate aria-labelledby="create-webhook-title">
      <h2 id="create-webhook-title">New webhook</h2>
      <TextField
        label="Receiver URL"
        name="url"
        type="url"
        required
        autoFocus
        placeholder="https://example.com/hooks/lnk"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={errors['url']}
        hint="An https address on the internet that accepts POST requests."
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
        legend="Events to send"
        name="events"
        options={EVENT_OPTIONS}
        value={events}
        onChange={setEvents}
        error={errors['events']}
      />
      <FormError error={create.error} shown={['url', 'description', 'events']} />
      <div className="buttons">
        <SubmitButton busy={create.isPending} busyLabel="Creating…">
          Create webhook
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One webhook: its state, what it listens to, and what can be done with it. */
interface WebhookCardProps {
  webhook: Webhook;
  onRotate: () => void;
  onDelete: () => void;
  onChanged: () => Promise<unknown>;
  onNotice: (text: string) => void;
}

function WebhookCard({ webhook, onRotate, onDelete, onChanged, onNotice }: WebhookCardProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [watchUntil, setWatchUntil] = useState(0);
  const test = useMutation({
    mutationFn: () => answer(sendWebhookTestEvent({ client, path: { id: webhook.id } })),
    onSuccess: () => {
      setOpen(true);
      setWatchUntil(Date.now() + WATCH_AFTER_TEST_MS);
      onNotice(`A test event is on its way to ${webhook.url}: it shows in the deliveries.`);
      return queryClient.invalidateQueries({ queryKey: deliveriesKey(webhook.id) });
    },
  });
  const toggle = useMutation({
    mutationFn: () => answer(updateWebhook({ client, path: { id: webhook.id }, body: { isActive: !webhook.isActive } })),
    onSuccess: () => onChanged(),
  });
  const error = test.error ?? toggle.error;
  const titleId = `webhook-${webhook.id}`;
  return (
    <section className="card webhook" aria-labelledby={titleId}>
      <div className="card-head">
        <h2 id={titleId} className="webhook-url">
          {webhook.url}
        </h2>
        {webhook.isActive && <span className="badge">On</span>}
        {!webhook.isActive && webhook.disabledReason && <span className="badge badge-bad">Turned off by the service</span>}
        {!webhook.isActive && !webhook.disabledReason && <span className="badge badge-warn">Off</span>}
      </div>
      {webhook.description && <p>{webhook.description}</p>}
      {!webhook.isActive && webhook.disabledReason && (
        <p className="state state-error" role="note">
          {webhook.disabledReason}. Mend the receiver, then turn it on again.
        </p>
      )}
      <p>
        Sends: {webhook.events.map((event) => EVENT_LABELS[event as WebhookEvent] ?? event).join(', ')}
        {webhook.linkIds ? ` (for ${webhook.linkIds.length} chosen link${webhook.linkIds.length === 1 ? '' : 's'})` : ' (for every link)'}.
        {webhook.consecutiveFailures > 0 && ` ${webhook.consecutiveFailures} failed attempt${webhook.consecutiveFailures === 1 ? '' : 's'} since the last success.`}
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {plainMessage(error)}
        </p>
      ) : null}
      <div className="buttons">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          Deliveries<span className="visually-hidden"> of {webhook.url}</span>
        </button>
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !webhook.isActive}>
          {test.isPending ? 'Sending…' : 'Send test'}
          <span className="visually-hidden"> to {webhook.url}</span>
        </button>
        <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {webhook.isActive ? 'Turn off' : 'Turn on'}
          <span className="visually-hidden"> {webhook.url}</span>
        </button>
        <button type="button" onClick={onRotate}>
          New secret<span className="visually-hidden"> for {webhook.url}</span>
        </button>
        <button type="button" className="danger" onClick={onDelete}>
          Delete<span className="visually-hidden"> {webhook.url}</span>
        </button>
      </div>
      {open && <Deliveries webhook={webhook} watchUntil={watchUntil} />}
    </section>
  );
}

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(0);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [notice, setNotice] = useState('');
  const webhooks = useQuery({
    queryKey: [...WEBHOOKS, 'list', start],
    queryFn: () => answer(listWebhooks({ client, query: { start, limit: PAGE_SIZE } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...WEBHOOKS, 'list'] });
  const rotate = useMutation({
    mutationFn: (webhook: Webhook) => answer(rotateWebhookSecret({ client, path: { id: webhook.id } })),
    onSuccess: (rotated) => {
      setRotating(null);
      setSecret({ title: `The new signing secret of ${rotated.data.url}`, value: rotated.data.secret });
    },
  });
  const remove = useMutation({
    mutationFn: (webhook: Webhook) => answer(deleteWebhook({ client, path: { id: webhook.id } })),
    onSuccess: (_answer, webhook) => {
      setDeleting(null);
      // The last one of a later page: show the page before rather than an empty list.
      if (rows.length === 1 && start > 0) setStart(Math.max(0, start - PAGE_SIZE));
      setNotice(`The webhook to ${webhook.url} is deleted, with its deliveries.`);
      return refresh();
    },
  });
  const rows = webhooks.data?.data ?? [];
  const startCreating = () => {
    setCreating(true);
    setNotice('');
  };
  return (
    <Page
      title="Webhooks"
      intro="The service posts an event to your own address when something happens to your links, signed with the webhook's secret."
      actions={
        !creating && !secret ? (
          <button type="button" className="primary" onClick={startCreating}>
            Create webhook
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
        <ShownOnce title={secret.title} value={secret.value} onDone={() => setSecret(null)}>
          <p>Check each delivery's signature with it (the webhook-signature header), so nobody else can post to your receiver as us.</p>
        </ShownOnce>
      )}
      {creating && (
        <CreateWebhookForm
          onCancel={() => setCreating(false)}
          onCreated={(url, value) => {
            setCreating(false);
            setSecret({ title: `The signing secret of ${url}`, value });
            setStart(0);
            void refresh();
          }}
        />
      )}
      {webhooks.isPending ? (
        <Loading what="Loading your webhooks" />
      ) : webhooks.isError ? (
        <ErrorState error={webhooks.error} retry={() => void webhooks.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No webhooks yet"
          action={
            !creating && (
              <button type="button" className="primary" onClick={startCreating}>
                Create your first webhook
              </button>
            )
          }
        >
          Create a webhook with the address of a receiver you run, and choose the events it gets. Then send it a test event.
        </EmptyState>
      ) : (
        <>
          {rows.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              onRotate={() => { setRotating(webhook); setNotice(''); }}
              onDelete={() => setDeleting(webhook)}
              onChanged={refresh}
              onNotice={setNotice}
            />
          ))}
          <Pager label="Webhook pages" start={start} limit={PAGE_SIZE} total={webhooks.data?.meta.total ?? 0} onStart={setStart} />
        </>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title="Make a new signing secret?"
        confirmLabel="Make a new secret"
        busy={rotate.isPending}
        onCancel={() => { setRotating(null); rotate.reset(); }}
        onConfirm={() => rotating && rotate.mutate(rotating)}
      >
        <p>Deliveries to {rotating?.url} are signed with the new secret from now on, retries included: give it to your receiver at once.</p>
        {rotate.error ? (
          <p className="form-error" role="alert">
            {plainMessage(rotate.error)}
          </p>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => { setDeleting(null); remove.reset(); }}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        <p>Nothing more is sent to {deleting?.url}, and its deliveries, sent or pending, are deleted. This cannot be undone.</p>
        {remove.error ? (
          <p className="form-error" role="alert">
            {plainMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}
