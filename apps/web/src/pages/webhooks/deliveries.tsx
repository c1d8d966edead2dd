import { listWebhookDeliveries, type Webhook } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { DataTable } from '../../components/data-table';
import { Pager } from '../../components/pager';
import { ListStates, usePagedList } from '../../components/section';
import { deliveryOutcome } from './events';

const PAGE_SIZE = 20;

export const deliveriesKey = (webhookId: string) => ['webhooks', webhookId, 'deliveries'] as const;

/** A webhook's deliveries, newest first: each event, when, and what the receiver answered. */
export function Deliveries({ webhook, watchUntil = 0 }: { webhook: Webhook; watchUntil?: number }) {
  const deliveries = usePagedList({
    key: deliveriesKey(webhook.id),
    pageSize: PAGE_SIZE,
    load: (page) => answer(listWebhookDeliveries({ client, path: { id: webhook.id }, query: page })),
    // A delivery in flight changes within seconds: look again while any is pending, and for a short while
    // after a test was sent (its delivery may not be listed yet); never for longer.
    refetchInterval: (rows) => (rows.some((d) => d.status === 'pending') || Date.now() < watchUntil ? 2000 : false),
  });
  const { list } = deliveries;
  return (
    <section className="deliveries" aria-label={`Deliveries to ${webhook.url}`}>
      <div className="card-head">
        <h3>Deliveries</h3>
        <button type="button" onClick={() => void list.refetch()} disabled={list.isFetching}>
          {list.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <ListStates
        list={list}
        count={deliveries.rows.length}
        loading="Loading the deliveries"
        empty={{
          title: 'Nothing sent yet',
          text: 'Send a test event to see what your receiver gets, or wait for one of the events it listens to.',
        }}
      >
        <DataTable
          caption={`Deliveries to ${webhook.url}`}
          rows={deliveries.rows}
          rowKey={(d) => d.id}
          columns={[
            { header: 'Event', cell: (d) => <code>{d.eventType}</code> },
            { header: 'Created', cell: (d) => new Date(d.createdAt).toLocaleString() },
            { header: 'Outcome', cell: (d) => <span className={`delivery delivery-${d.status}`}>{deliveryOutcome(d)}</span> },
            { header: 'Message ID', cell: (d) => <code>{d.messageId}</code> },
          ]}
        />
        <Pager label="Delivery pages" {...deliveries.pager} />
      </ListStates>
    </section>
  );
}
