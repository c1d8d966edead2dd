import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouteLink, useLocation } from 'wouter';
import { deleteLink, getLink, getLinkQrCode, getStatsByDimension, getStatsTimeSeries, type Link } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { Page } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { saveBlob } from './downloads';
import { LINKS } from './links-page';
import { bucketLabel, type Interval, lastDays, rangeProblem, type StatsRange } from './stats-range';
import './links.css';

// Chart.js is loaded only when a link's page shows its charts, not with the dashboard's first load.
const VisitsOverTime = lazy(() => import('./link-charts').then((m) => ({ default: m.VisitsOverTime })));
const Breakdown = lazy(() => import('./link-charts').then((m) => ({ default: m.Breakdown })));

const DIMENSIONS = [
  { path: 'referrers', title: 'Referrers' },
  { path: 'countries', title: 'Countries' },
  { path: 'devices', title: 'Devices' },
  { path: 'browsers', title: 'Browsers' },
  { path: 'os', title: 'Operating systems' },
  { path: 'triggers', title: 'QR code or link' },
] as const;

export function LinkPage({ params }: { params: { id: string } }) {
  const link = useQuery({ queryKey: [...LINKS, 'one', params.id], queryFn: () => answer(getLink({ client, path: { id: params.id } })) });
  if (link.isPending) return <Loading what="Loading the link" />;
  if (link.isError) return <ErrorState error={link.error} retry={() => void link.refetch()} />;
  return <LinkDetails link={link.data.data} />;
}

function LinkDetails({ link }: { link: Link }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => answer(deleteLink({ client, path: { id: link.id } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: LINKS });
      navigate('/links');
    },
  });
  return (
    <Page
      title={link.title || link.slug}
      actions={
        <>
          <RouteLink href={`/links/${link.id}/edit`} className="button">
            Edit
          </RouteLink>
          <button type="button" className="danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </>
      }
    >
      <section className="card" aria-label="Short URL">
        <p className="secret-row">
          <a className="short-url" href={link.shortUrl} target="_blank" rel="noopener noreferrer" data-testid="short-url">
            {link.shortUrl}
          </a>
          <CopyButton value={link.shortUrl} label="Copy short URL" />
        </p>
        <dl className="facts">
          <dt>Goes to</dt>
          <dd>
            <code>{link.url}</code>
          </dd>
          <dt>State</dt>
          <dd>{link.status ? 'On' : 'Off (answers 404)'}</dd>
          <dt>Clicks</dt>
          <dd>{link.clicks.toLocaleString()}</dd>
          {link.hasPassword && (
            <>
              <dt>Password</dt>
              <dd>Visitors must type it</dd>
            </>
          )}
          {link.expiresAt && (
            <>
              <dt>Expires</dt>
              <dd>
                {new Date(link.expiresAt).toLocaleString()}
                {link.expiredUrl ? `, then goes to ${link.expiredUrl}` : ''}
              </dd>
            </>
          )}
          {link.maxVisits !== undefined && (
            <>
              <dt>Visit limit</dt>
              <dd>
                {link.visitsUsed ?? 0} of {link.maxVisits} used
              </dd>
            </>
          )}
          {link.redirectType && (
            <>
              <dt>Redirect</dt>
              <dd>{link.redirectType}</dd>
            </>
          )}
          {link.tags.length > 0 && (
            <>
              <dt>Tags</dt>
              <dd>{link.tags.map((t) => t.name).join(', ')}</dd>
            </>
          )}
        </dl>
      </section>
      <QrCode link={link} />
      <LinkStats link={link} />
      <ConfirmDialog
        open={deleting}
        title={`Delete ${link.title || link.slug}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => {
          setDeleting(false);
          remove.reset();
        }}
        onConfirm={() => remove.mutate()}
      >
        <p>The short URL stops working at once, and its clicks go with it. This cannot be undone.</p>
        {remove.error ? (
          <p className="form-error" role="alert">
            {plainMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}

/** The QR code fetched as a blob through the SDK (the API needs the bearer token, which an <img src> cannot send). */
function QrCode({ link }: { link: Link }) {
  const qr = useQuery({
    queryKey: [...LINKS, 'qr', link.id, link.shortUrl],
    queryFn: () =>
      answer(getLinkQrCode({ client, path: { id: link.id }, query: { format: 'png', size: 240 }, parseAs: 'blob' })) as Promise<Blob>,
    staleTime: Infinity,
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!qr.data) return;
    const objectUrl = URL.createObjectURL(qr.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [qr.data]);
  const download = useMutation({
    mutationFn: async (format: 'png' | 'svg') => {
      const blob = (await answer(getLinkQrCode({ client, path: { id: link.id }, query: { format, size: 1024 }, parseAs: 'blob' }))) as Blob;
      saveBlob(blob, `${link.slug}-qr.${format}`);
    },
  });
  return (
    <section className="card" aria-labelledby="qr-title">
      <h2 id="qr-title">QR code</h2>
      {qr.isPending ? (
        <Loading what="Drawing the QR code" />
      ) : qr.isError ? (
        <ErrorState error={qr.error} />
      ) : (
        url && <img className="qr-preview" src={url} alt={`QR code of ${link.shortUrl}`} />
      )}
      <p className="field-hint">Visits through the code are counted as "QR code" below.</p>
      <div className="buttons">
        <button type="button" onClick={() => download.mutate('png')} disabled={download.isPending}>
          Download PNG
        </button>
        <button type="button" onClick={() => download.mutate('svg')} disabled={download.isPending}>
          Download SVG
        </button>
      </div>
      {download.error ? (
        <p className="form-error" role="alert">
          {plainMessage(download.error)}
        </p>
      ) : null}
    </section>
  );
}

function LinkStats({ link }: { link: Link }) {
  const [range, setRange] = useState<StatsRange>(() => lastDays(30));
  const problem = rangeProblem(range);
  const query = { startDate: range.startDate, endDate: range.endDate, linkId: link.id };
  const series = useQuery({
    queryKey: ['stats', link.id, 'series', range],
    queryFn: () => answer(getStatsTimeSeries({ client, query: { ...query, interval: range.interval } })),
    enabled: !problem,
  });
  const labels = useMemo(() => (series.data?.data ?? []).map((b) => bucketLabel(b.date, range.interval)), [series.data, range.interval]);
  const values = useMemo(() => (series.data?.data ?? []).map((b) => b.visits), [series.data]);
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <section className="card" aria-labelledby="stats-title">
      <h2 id="stats-title">Clicks</h2>
      <div className="stats-controls">
        <div className="field">
          <label htmlFor="stats-start">From</label>
          <input id="stats-start" type="date" value={range.startDate} onChange={(e) => setRange({ ...range, startDate: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="stats-end">To</label>
          <input id="stats-end" type="date" value={range.endDate} onChange={(e) => setRange({ ...range, endDate: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="stats-interval">By</label>
          <select id="stats-interval" value={range.interval} onChange={(e) => setRange({ ...range, interval: e.target.value as Interval })}>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </div>
      </div>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : series.isPending ? (
        <Loading what="Counting clicks" />
      ) : series.isError ? (
        <ErrorState error={series.error} retry={() => void series.refetch()} />
      ) : (
        <>
          <h3 id="over-time-title">
            Over time: <span data-testid="visits-total">{total}</span> {total === 1 ? 'visit' : 'visits'}
          </h3>
          <div className="chart-block">
            <Suspense fallback={<Loading what="Loading the chart" />}>
              <VisitsOverTime labels={labels} values={values} />
            </Suspense>
            <NumbersTable
              caption="Visits over time"
              first={range.interval === 'day' ? 'Day' : range.interval === 'week' ? 'Week' : 'Month'}
              labels={labels}
              values={values}
            />
          </div>
          <div className="breakdowns">
            {DIMENSIONS.map((d) => (
              <DimensionBreakdown key={d.path} dimension={d.path} title={d.title} query={query} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function DimensionBreakdown({
  dimension,
  title,
  query,
}: {
  dimension: (typeof DIMENSIONS)[number]['path'];
  title: string;
  query: { startDate: string; endDate: string; linkId: string };
}) {
  const values = useQuery({
    queryKey: ['stats', query.linkId, dimension, query.startDate, query.endDate],
    queryFn: () => answer(getStatsByDimension({ client, path: { dimension }, query: { ...query, limit: 10 } })),
  });
  const shown = useMemo(
    () =>
      (values.data?.data ?? []).map((v) =>
        dimension === 'triggers' ? (v.value === 'qr' ? 'QR code' : v.value === 'link' ? 'Link' : v.value) : v.value,
      ),
    [values.data, dimension],
  );
  const counts = useMemo(() => (values.data?.data ?? []).map((v) => v.visits), [values.data]);
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {values.isPending ? (
        <Loading what={`Counting by ${title.toLowerCase()}`} />
      ) : values.isError ? (
        <ErrorState error={values.error} />
      ) : counts.length === 0 ? (
        <p className="field-hint">No visits in this period.</p>
      ) : (
        <div className="chart-block">
          <Suspense fallback={<Loading what="Loading the chart" />}>
            <Breakdown title={title} labels={shown} values={counts} />
          </Suspense>
          <NumbersTable caption={title} first={title} labels={shown} values={counts} />
        </div>
      )}
    </section>
  );
}

/** The numbers a chart draws, as a table: what a screen reader reads, and anyone who wants the figures. */
function NumbersTable({ caption, first, labels, values }: { caption: string; first: string; labels: string[]; values: number[] }) {
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col" className="col-number">
              Visits
            </th>
          </tr>
        </thead>
        <tbody>
          {labels.map((label, i) => (
            <tr key={`${label}-${i}`}>
              <td>{label}</td>
              <td className="col-number">{values[i]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
