import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  updateWebhook,
  type Webhook,
} from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CheckboxGroup, fieldErrors, TextField } from '../../components/form';
import { MutationError } from '../../components/mutation-error';
import { Pager } from '../../components/pager';
import { MutationForm, RowButton, SectionList, SectionPage, useConfirmed, useSection } from '../../components/section';
import { ShownOnce } from '../../components/shown-once';
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
    mutationFn: () =>
      answer(
        createWebhook({
          client,
          body: { url: url.trim(), events: events as WebhookEvent[], ...(description.trim() ? { description: description.trim() } : {}) },
        }),
      ),
    onSuccess: (created) => onCreated(created.data.url, created.data.secret),
  });
  const errors = fieldErrors(create.error);
  return (
    <MutationForm
      title="New webhook"
      action={create}
      shown={['url', 'description', 'events']}
      submitLabel="Create webhook"
      busyLabel="Creating…"
      onCancel={onCancel}
    >
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
    </MutationForm>
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
        {webhook.consecutiveFailures > 0 &&
          ` ${webhook.consecutiveFailures} failed attempt${webhook.consecutiveFailures === 1 ? '' : 's'} since the last success.`}
      </p>
      <MutationError error={test.error ?? toggle.error} />
      <div className="buttons">
        <RowButton label="Deliveries" of={`of ${webhook.url}`} aria-expanded={open} onClick={() => setOpen(!open)} />
        <RowButton
          label={test.isPending ? 'Sending…' : 'Send test'}
          of={`to ${webhook.url}`}
          onClick={() => test.mutate()}
          disabled={test.isPending || !webhook.isActive}
        />
        <RowButton
          label={webhook.isActive ? 'Turn off' : 'Turn on'}
          of={webhook.url}
          onClick={() => toggle.mutate()}
          disabled={toggle.isPending}
        />
        <RowButton label="New secret" of={`for ${webhook.url}`} onClick={onRotate} />
        <RowButton label="Delete" of={webhook.url} danger onClick={onDelete} />
      </div>
      {open && <Deliveries webhook={webhook} watchUntil={watchUntil} />}
    </section>
  );
}

export function WebhooksPage() {
  const section = useSection({
    key: [...WEBHOOKS, 'list'],
    pageSize: PAGE_SIZE,
    load: (page) => answer(listWebhooks({ client, query: page })),
  });
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const rotate = useConfirmed({
    run: (webhook: Webhook) => answer(rotateWebhookSecret({ client, path: { id: webhook.id } })),
    done: (rotated) => setSecret({ title: `The new signing secret of ${rotated.data.url}`, value: rotated.data.secret }),
  });
  const remove = useConfirmed({
    run: (webhook: Webhook) => answer(deleteWebhook({ client, path: { id: webhook.id } })),
    done: (_answer, webhook) => section.removed(`The webhook to ${webhook.url} is deleted, with its deliveries.`),
  });
  return (
    <SectionPage
      section={section}
      title="Webhooks"
      createLabel="Create webhook"
      canCreate={!secret}
      intro="The service posts an event to your own address when something happens to your links, signed with the webhook's secret."
    >
      {secret && (
        <ShownOnce title={secret.title} value={secret.value} onDone={() => setSecret(null)}>
          <p>Check each delivery's signature with it (the webhook-signature header), so nobody else can post to your receiver as us.</p>
        </ShownOnce>
      )}
      {section.creating && (
        <CreateWebhookForm
          onCancel={section.stopCreating}
          onCreated={(url, value) => {
            section.created();
            setSecret({ title: `The signing secret of ${url}`, value });
          }}
        />
      )}
      <SectionList
        section={section}
        loading="Loading your webhooks"
        empty={{
          title: 'No webhooks yet',
          createLabel: 'Create your first webhook',
          text: 'Create a webhook with the address of a receiver you run, and choose the events it gets. Then send it a test event.',
        }}
      >
        {section.rows.map((webhook) => (
          <WebhookCard
            key={webhook.id}
            webhook={webhook}
            onRotate={() => {
              rotate.ask(webhook);
              section.setNotice('');
            }}
            onDelete={() => remove.ask(webhook)}
            onChanged={section.refresh}
            onNotice={section.setNotice}
          />
        ))}
        <Pager label="Webhook pages" {...section.pager} />
      </SectionList>
      <ConfirmDialog {...rotate.dialog} title="Make a new signing secret?" confirmLabel="Make a new secret">
        <p>
          Deliveries to {rotate.target?.url} are signed with the new secret from now on, retries included: give it to your receiver at once.
        </p>
      </ConfirmDialog>
      <ConfirmDialog {...remove.dialog} title="Delete this webhook?" confirmLabel="Delete">
        <p>Nothing more is sent to {remove.target?.url}, and its deliveries, sent or pending, are deleted. This cannot be undone.</p>
      </ConfirmDialog>
    </SectionPage>
  );
}
