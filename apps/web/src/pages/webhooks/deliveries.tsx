import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listWebhookDeliveries, type Webhook } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { DataTable } from '../../components/data-table';
import { Pager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { deliveryOutcome } from './events';

const PAGE_SIZE = 20;

export const deliveriesKey = (webhookId: string) => ['webhooks', webhookId, 'deliveries'] as const;

/** A webhook's deliveries, newest first: each event, when, and what the receiver answered. */
export function Deliveries({ webhook, watchUntil = 0 }: { webhook: Webhook; watchUntil?: number }) {
  const [start, setStart] = useState(0);
  const deliveries = useQuery({
    queryKey: [...deliveriesKey(webhook.id), start],
    queryFn: () => answer(listWebhookDeliveries({ client, path: { id: webhook.id }, query: { start, limit: PAGE_SIZE } })),
    placeholderData: keepPreviousData,
    // A delivery in flight changes within seconds: look again while any is pending, and for a short while
    // after a test was sent (its delivery may not be listed yet); never for longer.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') || Date.now() < watchUntil ? 2000 : false),
  });
  const rows = deliveries.data?.data ?? [];
  return (
    <section className="deliveries" aria-label={`Deliveries to ${webhook.url}`}>
      <div className="card-head">
        <h3>Deliveries</h3>
        <button type="button" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
          {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {deliveries.isPending ? (
        <Loading what="Loading the deliveries" />
      ) : deliveries.isError ? (
        <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="Nothing sent yet">Send a test event to see what your receiver gets, or wait for one of the events it listens to.</EmptyState>
      ) : (
        <>
          <DataTable
            caption={`Deliveries to ${webhook.url}`}
            rows={rows}
            rowKey={(d) => d.id}
            columns={[
              { header: 'Event', cell: (d) => <code>{d.eventType}</code> },
              { header: 'Created', cell: (d) => new Date(d.createdAt).toLocaleString() },
              { header: 'Outcome', cell: (d) => <span className={`delivery delivery-${d.status}`}>{deliveryOutcome(d)}</span> },
              { header: 'Message ID', cell: (d) => <code>{d.messageId}</code> },
            ]}
          />
          <Pager label="Delivery pages" start={start} limit={PAGE_SIZE} total={deliveries.data?.meta.total ?? 0} onStart={setStart} />
        </>
      )}
    </section>
  );
}
