import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link, useLocation, useSearch } from 'wouter';
import { type BulkOutcome, deleteLinks, type LinkListItem, listTags, tagLinks, updateLink } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { Page } from '../../components/page';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { linksCsv, linksNdjson, saveBlob } from './downloads';
import { FIRST_PAGE, fetchLinksPage, type LinkFilter } from './link-pages';
import { LINK_SORTS, type LinkListView, type LinkSortValue, searchOfView, viewOfSearch } from './list-view';
import './links.css';

export const LINKS = ['links'] as const;
/** Ids one bulk request takes (the API's limit); a larger selection goes in several requests, one after another. */
const BULK_SIZE = 100;
/** A row's height in pixels (links.css keeps every row on one line of this height). */
const ROW_HEIGHT = 48;
/** How close to the last loaded row the table asks for the next page. */
const PREFETCH_ROWS = 30;

async function inBatches(
  ids: readonly string[],
  run: (batch: string[]) => Promise<{ data: BulkOutcome[] }>,
): Promise<{ done: number; missing: number }> {
  let done = 0;
  for (let i = 0; i < ids.length; i += BULK_SIZE) {
    const outcomes = (await run(ids.slice(i, i + BULK_SIZE))).data;
    done += outcomes.filter((o) => o.found).length;
  }
  return { done, missing: ids.length - done };
}

/** How long the search text must rest before the list asks the API. */
const SEARCH_PAUSE_MS = 300;

/** `value` once it has not changed for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const tagNames = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function LinksPage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  // The view (expired, tag, favourites, order) is the address's query: a reload, a bookmark or a shared address keeps it.
  const [location, navigate] = useLocation();
  const address = useSearch();
  const view = useMemo(() => viewOfSearch(address), [address]);
  const setView = (change: Partial<LinkListView>) => navigate(`${location}${searchOfView({ ...view, ...change })}`, { replace: true });
  const tags = useQuery({ queryKey: ['tags', 'for-links'], queryFn: () => answer(listTags({ client, query: { limit: 100 } })) });
  // Typing does not send a request a keystroke: the list follows the text once it rests.
  const q = useSettled(search, SEARCH_PAUSE_MS);
  const filter = useMemo<LinkFilter>(() => ({ q, ...view }), [q, view]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [retag, setRetag] = useState('');

  const links = useInfiniteQuery({
    queryKey: [...LINKS, 'list', filter],
    queryFn: ({ pageParam, signal }) => fetchLinksPage(filter, pageParam, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (last) => last.next,
  });
  const rows = useMemo(() => links.data?.pages.flatMap((p) => p.links) ?? [], [links.data]);
  const total = links.data?.pages[0]?.total ?? 0;

  // The selection is of links the table shows: a new filter starts a new one.
  useEffect(() => setSelected(new Set()), [filter]);

  const toggle = (id: string, on: boolean) =>
    setSelected((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const chosen = () => rows.filter((r) => selected.has(r.id));
  const refresh = () => queryClient.invalidateQueries({ queryKey: LINKS });

  const remove = useMutation({
    mutationFn: () => inBatches([...selected], (ids) => answer(deleteLinks({ client, body: { ids } }))),
    onSuccess: ({ done, missing }) => {
      setDeleting(false);
      setSelected(new Set());
      setNotice(`${done} ${done === 1 ? 'link' : 'links'} deleted${missing ? `; ${missing} had already gone` : ''}.`);
      return refresh();
    },
  });
  const tag = useMutation({
    mutationFn: (change: 'add' | 'remove') => {
      const names = tagNames(retag);
      return inBatches([...selected], (ids) =>
        answer(tagLinks({ client, body: change === 'add' ? { ids, add: names } : { ids, remove: names } })),
      );
    },
    onSuccess: ({ done }, change) => {
      setNotice(`${change === 'add' ? 'Tagged' : 'Untagged'} ${done} ${done === 1 ? 'link' : 'links'}: ${tagNames(retag).join(', ')}.`);
      setRetag('');
      return refresh();
    },
  });
  const exportChosen = (format: 'csv' | 'json') => {
    const list = chosen();
    if (format === 'csv') saveBlob(new Blob([linksCsv(list)], { type: 'text/csv' }), 'links-selected.csv');
    else saveBlob(new Blob([linksNdjson(list)], { type: 'application/x-ndjson' }), 'links-selected.ndjson');
  };
  const submitRetag = (event: FormEvent) => {
    event.preventDefault();
    if (tagNames(retag).length) tag.mutate('add');
  };

  const filtered = filter.q.trim() !== '' || filter.expired !== 'all' || filter.tag !== '' || filter.favorite;
  const tagOptions = tags.data?.data ?? [];
  return (
    <Page
      title="Links"
      intro="Your short links: search them, open one for its clicks, or choose several to delete, tag or export."
      actions={
        <>
          <Link href="/links/import" className="button">
            Import or export
          </Link>
          <Link href="/links/new" className="button primary">
            New link
          </Link>
        </>
      }
    >
      <div className="link-filters" role="search">
        <div className="field">
          <label htmlFor="link-search">Search links</label>
          <input
            id="link-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Title, slug or destination"
          />
        </div>
        <div className="field field-compact">
          <label htmlFor="link-expired">Show</label>
          <select id="link-expired" value={view.expired} onChange={(e) => setView({ expired: e.target.value as LinkListView['expired'] })}>
            <option value="all">All links</option>
            <option value="false">Live links</option>
            <option value="true">Expired links</option>
          </select>
        </div>
        <div className="field field-compact">
          <label htmlFor="link-tag">Tag</label>
          <select id="link-tag" value={view.tag} onChange={(e) => setView({ tag: e.target.value })}>
            <option value="">Any tag</option>
            {tagOptions.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
            {view.tag && !tagOptions.some((t) => t.id === view.tag) && (
              <option value={view.tag}>{tags.isPending ? 'Loading…' : 'The chosen tag'}</option>
            )}
          </select>
        </div>
        <div className="field field-compact">
          <label htmlFor="link-sort">Order</label>
          <select id="link-sort" value={view.sort} onChange={(e) => setView({ sort: e.target.value as LinkSortValue })}>
            {LINK_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox field link-favorites">
          <input type="checkbox" checked={view.favorite} onChange={(e) => setView({ favorite: e.target.checked })} />
          Favourites only
        </label>
      </div>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {selected.size > 0 && (
        <section className="bulk-bar card" aria-label="Chosen links">
          <p>
            <strong>{selected.size}</strong> chosen
          </p>
          <div className="buttons">
            <button type="button" className="danger" onClick={() => setDeleting(true)}>
              Delete chosen
            </button>
            <button type="button" onClick={() => exportChosen('csv')}>
              Export chosen as CSV
            </button>
            <button type="button" onClick={() => exportChosen('json')}>
              Export chosen as JSON
            </button>
            <button type="button" onClick={() => setSelected(new Set())}>
              Clear choice
            </button>
          </div>
          <form className="retag" onSubmit={submitRetag}>
            <div className="field">
              <label htmlFor="retag-names">Tags (separated by commas)</label>
              <input id="retag-names" value={retag} onChange={(e) => setRetag(e.target.value)} maxLength={500} />
            </div>
            <div className="buttons">
              <button type="submit" disabled={!tagNames(retag).length || tag.isPending}>
                Add tags
              </button>
              <button type="button" disabled={!tagNames(retag).length || tag.isPending} onClick={() => tag.mutate('remove')}>
                Remove tags
              </button>
            </div>
            {tag.error ? (
              <p className="form-error" role="alert">
                {plainMessage(tag.error)}
              </p>
            ) : null}
          </form>
        </section>
      )}
      {links.isPending ? (
        <Loading what="Loading your links" />
      ) : links.isError ? (
        <ErrorState error={links.error} retry={() => void links.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No link matches"
            action={
              <Link href={location} className="button" onClick={() => setSearch('')}>
                Show all links
              </Link>
            }
          >
            Try other words, another tag, or show all links.
          </EmptyState>
        ) : (
          <EmptyState
            title="No links yet"
            action={
              <Link href="/links/new" className="button primary">
                Create your first link
              </Link>
            }
          >
            A short link sends visitors to a long address and counts their clicks. Create one, or import the links you have elsewhere as
            CSV.
          </EmptyState>
        )
      ) : (
        <>
          <p className="link-count" aria-live="polite">
            {total === 1 ? '1 link' : `${total.toLocaleString()} links`}
            {filtered ? ' match' : ''}
          </p>
          {/* A table of its own for each filter: its scroller and virtualiser start from the top of that list. */}
          <LinksTable
            key={JSON.stringify(filter)}
            rows={rows}
            total={total}
            selected={selected}
            onChoose={toggle}
            onChooseAll={(on) => setSelected(on ? new Set(rows.map((r) => r.id)) : new Set())}
            more={links}
          />
          {links.isFetchingNextPage && <Loading what="Loading more links" />}
        </>
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${selected.size} ${selected.size === 1 ? 'link' : 'links'}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => {
          setDeleting(false);
          remove.reset();
        }}
        onConfirm={() => remove.mutate()}
      >
        <p>Their short URLs stop working at once, and their clicks go with them. This cannot be undone.</p>
        {remove.error ? (
          <p className="form-error" role="alert">
            {plainMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}

interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The rows in view of the links loaded (virtualised), asking for the next page as the last ones come into view. */
function LinksTable({
  rows,
  total,
  selected,
  onChoose,
  onChooseAll,
  more,
}: {
  rows: LinkListItem[];
  total: number;
  selected: ReadonlySet<string>;
  onChoose: (id: string, on: boolean) => void;
  onChooseAll: (on: boolean) => void;
  more: MorePages;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.length ? items[items.length - 1].index : -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = more;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= rows.length - PREFETCH_ROWS) void fetchNextPage();
  }, [lastShown, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);
  const allLoadedSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <div className="links-scroll" ref={scroller} tabIndex={0} role="region" aria-label="Your links (scrolls)">
      <table className="data-table links-table" aria-rowcount={total + 1}>
        <caption className="visually-hidden">Your links</caption>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="col-pick">
              <input
                type="checkbox"
                aria-label="Choose every link loaded"
                checked={allLoadedSelected}
                onChange={(e) => onChooseAll(e.target.checked)}
              />
            </th>
            <th scope="col" className="col-star">
              <span className="visually-hidden">Favourite</span>
            </th>
            <th scope="col">Short link</th>
            <th scope="col">Destination</th>
            <th scope="col" className="col-number">
              Clicks
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {items.length > 0 && (
            <tr
              aria-hidden="true"
              className="spacer"
              ref={(row) => {
                if (row) row.style.height = `${items[0].start}px`;
              }}
            />
          )}
          {items.map((item) => (
            <LinkRow
              key={rows[item.index].id}
              link={rows[item.index]}
              index={item.index}
              chosen={selected.has(rows[item.index].id)}
              onChoose={onChoose}
              measure={virtualizer.measureElement}
            />
          ))}
          {items.length > 0 && (
            <tr
              aria-hidden="true"
              className="spacer"
              ref={(row) => {
                if (row) row.style.height = `${virtualizer.getTotalSize() - items[items.length - 1].end}px`;
              }}
            />
          )}
        </tbody>
      </table>
    </div>
  );
}

function LinkRow({
  link,
  index,
  chosen,
  onChoose,
  measure,
}: {
  link: LinkListItem;
  index: number;
  chosen: boolean;
  onChoose: (id: string, on: boolean) => void;
  measure: (row: HTMLTableRowElement | null) => void;
}) {
  const name = link.title || link.slug;
  // Measured once drawn (data-index tells the virtualiser which row), should a row come out taller than ROW_HEIGHT.
  return (
    <tr aria-rowindex={index + 2} className={chosen ? 'chosen' : undefined} data-index={index} ref={measure}>
      <td className="col-pick">
        <input type="checkbox" aria-label={`Choose ${name}`} checked={chosen} onChange={(e) => onChoose(link.id, e.target.checked)} />
      </td>
      <td className="col-star">
        <FavoriteButton link={link} name={name} />
      </td>
      <td className="col-short">
        <Link href={`/links/${link.id}`} className="link-name">
          {link.title || link.shortUrl.replace(/^https?:\/\//, '')}
        </Link>
        <CopyButton value={link.shortUrl} label="Copy" ariaLabel={`Copy the short URL of ${name}`} />
      </td>
      <td className="col-url" title={link.url}>
        {link.url}
      </td>
      <td className="col-number">{link.clicks.toLocaleString()}</td>
      <td>{day(link.createdAt)}</td>
    </tr>
  );
}

/** A row's star: marks or unmarks the link as a favourite (PUT /user/link/{id}), then the list is read again. */
function FavoriteButton({ link, name }: { link: LinkListItem; name: string }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => answer(updateLink({ client, path: { id: link.id }, body: { isFavorite: !link.isFavorite } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LINKS }),
  });
  return (
    <button
      type="button"
      className="star"
      aria-pressed={link.isFavorite}
      aria-label={`Favourite: ${name}`}
      title={toggle.isError ? plainMessage(toggle.error) : link.isFavorite ? 'Unmark as favourite' : 'Mark as favourite'}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate()}
    >
      <span aria-hidden="true">{link.isFavorite ? '★' : '☆'}</span>
    </button>
  );
}
