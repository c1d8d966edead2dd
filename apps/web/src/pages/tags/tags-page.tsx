import { type FormEvent, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createTag, deleteTag, listTags, type Tag, updateTag } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { fieldErrors, FormError, SubmitButton, TextField } from '../../components/form';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { dayOf } from '../tokens/scopes';

const PAGE_SIZE = 50;
const TAGS = ['tags'] as const;

function CreateTagForm({ onCreated, onCancel }: { onCreated: (tag: Tag) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [isFavorite, setFavorite] = useState(false);
  const create = useMutation({
    mutationFn: () => answer(createTag({ client, body: { name: name.trim(), isFavorite } })),
    onSuccess: (created) => onCreated(created.data),
  });
  const errors = fieldErrors(create.error);
  return (
    <form className="card" onSubmit={(event: FormEvent) => { event.preventDefault(); create.mutate(); }} noValidate aria-labelledby="create-tag-title">
      <h2 id="create-tag-title">New tag</h2>
      <TextField
        label="Name"
        name="name"
        required
        autoFocus
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors['name']}
      />
      <label className="checkbox">
        <input type="checkbox" name="isFavorite" checked={isFavorite} onChange={(e) => setFavorite(e.target.checked)} /> Favourite (listed first when you tag links)
      </label>
      <FormError error={create.error} shown={['name']} />
      <div className="buttons">
        <SubmitButton busy={create.isPending} busyLabel="Creating…">
          Create tag
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A tag's name, or the field that renames it. */
function TagName({ tag, editing, onEdit, onDone }: { tag: Tag; editing: boolean; onEdit: () => void; onDone: (message?: string) => void }) {
  const [name, setName] = useState(tag.name);
  const rename = useMutation({
    mutationFn: () => answer(updateTag({ client, path: { id: tag.id }, body: { name: name.trim() } })),
    onSuccess: (renamed) => onDone(`"${tag.name}" is now "${renamed.data.name}".`),
  });
  if (!editing) {
    return (
      <span className="tag-name">
        <strong>{tag.name}</strong>{' '}
        <button type="button" className="link-button" onClick={onEdit}>
          Rename<span className="visually-hidden"> {tag.name}</span>
        </button>
      </span>
    );
  }
  const errors = fieldErrors(rename.error);
  return (
    <form className="inline-form" onSubmit={(event: FormEvent) => { event.preventDefault(); rename.mutate(); }} noValidate>
      <TextField
        label={`New name for ${tag.name}`}
        name="name"
        required
        autoFocus
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors['name']}
      />
      <FormError error={rename.error} shown={['name']} />
      <div className="buttons">
        <SubmitButton busy={rename.isPending} busyLabel="Saving…">
          Save
        </SubmitButton>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function TagsPage() {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(0);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [notice, setNotice] = useState('');
  const q = search.trim();
  const tags = useQuery({
    queryKey: [...TAGS, q, start],
    queryFn: () => answer(listTags({ client, query: { start, limit: PAGE_SIZE, ...(q ? { q } : {}) } })),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: TAGS });
  const favourite = useMutation({
    mutationFn: (tag: Tag) => answer(updateTag({ client, path: { id: tag.id }, body: { isFavorite: !tag.isFavorite } })),
    onSuccess: () => refresh(),
  });
  const remove = useMutation({
    mutationFn: (tag: Tag) => answer(deleteTag({ client, path: { id: tag.id } })),
    onSuccess: (_answer, tag) => {
      setDeleting(null);
      // The last one of a later page: show the page before rather than an empty list.
      if (rows.length === 1 && start > 0) setStart(Math.max(0, start - PAGE_SIZE));
      setNotice(`"${tag.name}" is deleted, and taken off its links.`);
      return refresh();
    },
  });
  const rows = tags.data?.data ?? [];
  const startCreating = () => {
    setCreating(true);
    setNotice('');
  };
  return (
    <Page
      title="Tags"
      intro="Tags group your links, so you can find, filter and export them together."
      actions={
        !creating ? (
          <button type="button" className="primary" onClick={startCreating}>
            Create tag
          </button>
        ) : undefined
      }
    >
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {favourite.error ? (
        <p className="form-error" role="alert">
          {plainMessage(favourite.error)}
        </p>
      ) : null}
      {creating && (
        <CreateTagForm
          onCancel={() => setCreating(false)}
          onCreated={(tag) => {
            setCreating(false);
            setNotice(`"${tag.name}" is created.`);
            void refresh();
          }}
        />
      )}
      {(rows.length > 0 || q) && (
        <div className="search">
          <TextField
            label="Search tags"
            name="q"
            type="search"
            value={search}
            onChange={(e) => { setSearch(e.target.value); setStart(0); }}
          />
        </div>
      )}
      {tags.isPending ? (
        <Loading what="Loading your tags" />
      ) : tags.isError ? (
        <ErrorState error={tags.error} retry={() => void tags.refetch()} />
      ) : rows.length === 0 && q ? (
        <p role="status">No tag matches "{q}".</p>
      ) : rows.length === 0 ? (
        <EmptyState
          title="No tags yet"
          action={
            !creating && (
              <button type="button" className="primary" onClick={startCreating}>
                Create your first tag
              </button>
            )
          }
        >
          Create a tag (say "campaign-spring" or "support"), then put it on links when you create or edit them.
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Your tags"
            rows={rows}
            rowKey={(tag) => tag.id}
            columns={[
              {
                header: 'Name',
                cell: (tag) => (
                  <TagName
                    tag={tag}
                    editing={editing === tag.id}
                    onEdit={() => { setEditing(tag.id); setNotice(''); }}
                    onDone={(message) => {
                      setEditing(null);
                      if (message) {
                        setNotice(message);
                        void refresh();
                      }
                    }}
                  />
                ),
              },
              {
                header: 'Favourite',
                cell: (tag) => (
                  // A toggle keeps its name; aria-pressed says whether it is on.
                  <button type="button" aria-pressed={tag.isFavorite} onClick={() => favourite.mutate(tag)} disabled={favourite.isPending}>
                    <span aria-hidden="true">{tag.isFavorite ? '★ ' : '☆ '}</span>
                    Favourite<span className="visually-hidden"> {tag.name}</span>
                  </button>
                ),
              },
              { header: 'Links', cell: (tag) => tag.linkCount },
              { header: 'Created', cell: (tag) => dayOf(tag.createdAt) },
              {
                header: 'Actions',
                cell: (tag) => (
                  <button type="button" className="danger" onClick={() => setDeleting(tag)}>
                    Delete<span className="visually-hidden"> {tag.name}</span>
                  </button>
                ),
              },
            ]}
          />
          <Pager label="Tag pages" start={start} limit={PAGE_SIZE} total={tags.data?.meta.total ?? 0} onStart={setStart} />
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => { setDeleting(null); remove.reset(); }}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        <p>{deleting?.linkCount ? `It is taken off its ${deleting.linkCount} link${deleting.linkCount === 1 ? '' : 's'}; the links stay.` : 'No link carries it.'} This cannot be undone.</p>
        {remove.error ? (
          <p className="form-error" role="alert">
            {plainMessage(remove.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Page>
  );
}
