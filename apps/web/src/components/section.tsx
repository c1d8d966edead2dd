import { type ButtonHTMLAttributes, type FormEvent, type ReactNode, useId, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormError, SubmitButton } from './form';
import { Page } from './page';
import { EmptyState, ErrorState, Loading } from './states';

/*
 * What the dashboard's section pages (API tokens, OAuth apps, webhooks, domains, tags) share: a paged
 * list of the account's things, a form that creates one, a notice of what was just done, and actions
 * taken after a confirmation.
 */

/** One page of a list as the API answers it. */
export interface ListPage<T> {
  data: T[];
  meta: { total: number };
}

/**
 * A list the API pages with start and limit: the page shown, its rows, and the pager's properties (add
 * its `label`). The page before stays on screen while the next one loads.
 */
export function usePagedList<T>({
  key,
  pageSize,
  load,
  refetchInterval,
}: {
  key: readonly unknown[];
  pageSize: number;
  load: (page: { start: number; limit: number }) => Promise<ListPage<T>>;
  refetchInterval?: (rows: readonly T[]) => number | false;
}) {
  const [start, setStart] = useState(0);
  const list = useQuery<ListPage<T>>({
    queryKey: [...key, start],
    queryFn: () => load({ start, limit: pageSize }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (refetchInterval ? refetchInterval(query.state.data?.data ?? []) : false),
  });
  const total = list.data?.meta.total ?? 0;
  return { list, rows: list.data?.data ?? [], total, start, setStart, pager: { start, limit: pageSize, total, onStart: setStart } };
}

/**
 * A section's paged list and the state around it: the create form's, the notice's. `key` is what a
 * change invalidates (every page and filter of the list); `filter` is part of the query's key only.
 */
export function useSection<T>({
  key,
  filter = [],
  pageSize,
  load,
}: {
  key: readonly unknown[];
  filter?: readonly unknown[];
  pageSize: number;
  load: (page: { start: number; limit: number }) => Promise<ListPage<T>>;
}) {
  const queryClient = useQueryClient();
  const paged = usePagedList({ key: [...key, ...filter], pageSize, load });
  const { rows, start, setStart } = paged;
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  return {
    ...paged,
    refresh,
    notice,
    setNotice,
    creating,
    /** Opens the create form; the notice of what was done before goes. */
    startCreating: () => {
      setCreating(true);
      setNotice('');
    },
    stopCreating: () => setCreating(false),
    /** One was created: the form closes and the first page (where it now stands) is shown afresh. */
    created: () => {
      setCreating(false);
      setStart(0);
      void refresh();
    },
    /** One was deleted: `notice` says so; the last one of a later page shows the page before rather than an empty list. */
    removed: (text: string) => {
      if (rows.length === 1 && start > 0) setStart(Math.max(0, start - pageSize));
      setNotice(text);
      return refresh();
    },
  };
}

/**
 * An action on one thing (delete, revoke, a new secret) asked first in a ConfirmDialog: `ask(thing)`
 * opens the dialog, `dialog` is its open/busy/cancel/confirm/error properties. Cancelling forgets the
 * last refusal; success closes the dialog and runs `done`.
 */
export function useConfirmed<T, R>({
  run,
  done,
  onCancel,
}: {
  run: (target: T) => Promise<R>;
  done: (result: R, target: T) => unknown;
  onCancel?: () => void;
}) {
  const [target, setTarget] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: (result, asked) => {
      setTarget(null);
      return done(result, asked);
    },
  });
  return {
    target,
    ask: (asked: T) => setTarget(() => asked),
    dialog: {
      open: target !== null,
      busy: mutation.isPending,
      error: mutation.error,
      onCancel: () => {
        setTarget(null);
        mutation.reset();
        onCancel?.();
      },
      onConfirm: () => {
        if (target !== null) mutation.mutate(target);
      },
    },
  };
}

/** What the section's components read of `useSection`. */
interface Section {
  list: ListQuery;
  rows: readonly unknown[];
  creating: boolean;
  startCreating: () => void;
  notice: string;
}

/** What ListStates reads of a query. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}

/**
 * A section's page: its heading and intro, the button that opens its create form (unless it is open or
 * `canCreate` is false, say while a secret is shown), and the notice of what was just done.
 */
export function SectionPage({
  section,
  title,
  intro,
  createLabel,
  canCreate = true,
  children,
}: {
  section: Pick<Section, 'creating' | 'startCreating' | 'notice'>;
  title: string;
  intro: ReactNode;
  createLabel: string;
  canCreate?: boolean;
  children: ReactNode;
}) {
  const action = canCreate && !section.creating && (
    <button type="button" className="primary" onClick={section.startCreating}>
      {createLabel}
    </button>
  );
  return (
    <Page title={title} intro={intro} actions={action || undefined}>
      {section.notice && (
        <p className="notice" role="status">
          {section.notice}
        </p>
      )}
      {children}
    </Page>
  );
}

/**
 * A list in its states: loading, failed (with a retry), nothing that matches the filter (`noMatch`),
 * empty (what it is for, and what to do first), else `children`.
 */
export function ListStates({
  list,
  count,
  loading,
  noMatch,
  empty,
  children,
}: {
  list: ListQuery;
  count: number;
  loading: string;
  noMatch?: ReactNode;
  empty: { title: string; text: ReactNode; action?: ReactNode };
  children: ReactNode;
}) {
  if (list.isPending) return <Loading what={loading} />;
  if (list.isError) return <ErrorState error={list.error} retry={() => void list.refetch()} />;
  if (count > 0) return <>{children}</>;
  if (noMatch) return <p role="status">{noMatch}</p>;
  return (
    <EmptyState title={empty.title} action={empty.action}>
      {empty.text}
    </EmptyState>
  );
}

/** A section's list in its states; when empty, a button opens the create form (unless it is open). */
export function SectionList({
  section,
  loading,
  noMatch,
  empty,
  children,
}: {
  section: Pick<Section, 'list' | 'rows' | 'creating' | 'startCreating'>;
  loading: string;
  noMatch?: ReactNode;
  empty: { title: string; text: ReactNode; createLabel: string };
  children: ReactNode;
}) {
  const action = !section.creating && (
    <button type="button" className="primary" onClick={section.startCreating}>
      {empty.createLabel}
    </button>
  );
  return (
    <ListStates list={section.list} count={section.rows.length} loading={loading} noMatch={noMatch} empty={{ ...empty, action }}>
      {children}
    </ListStates>
  );
}

/**
 * A form that sends one request: its fields (`children`), the refusal no field shows, the submit button
 * and Cancel. With a `title` it is a card labelled by its heading; without, an inline form.
 */
export function MutationForm({
  title,
  action,
  shown,
  submitLabel,
  busyLabel,
  onCancel,
  children,
}: {
  title?: string;
  action: { mutate: () => void; isPending: boolean; error: unknown };
  shown: readonly string[];
  submitLabel: ReactNode;
  busyLabel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate();
  };
  return (
    <form className={title ? 'card' : 'inline-form'} onSubmit={submit} noValidate aria-labelledby={title ? titleId : undefined}>
      {title && <h2 id={titleId}>{title}</h2>}
      {children}
      <FormError error={action.error} shown={shown} />
      <div className="buttons">
        <SubmitButton busy={action.isPending} busyLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A button on one thing of a list: its visible label, and (for screen readers) which thing it acts on. */
export function RowButton({
  label,
  of,
  danger = false,
  className,
  ...button
}: { label: ReactNode; of: string; danger?: boolean } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'children'>) {
  return (
    <button type="button" className={danger ? 'danger' : className} {...button}>
      {label}
      <span className="visually-hidden"> {of}</span>
    </button>
  );
}
