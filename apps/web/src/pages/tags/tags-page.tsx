import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { createTag, deleteTag, listTags, type Tag, updateTag } from '@lnk/sdk';
import '../sections.css';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { createdColumn } from '../../components/columns';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { fieldErrors, TextField } from '../../components/form';
import { MutationError } from '../../components/mutation-error';
import { Pager } from '../../components/pager';
import { MutationForm, RowButton, SectionList, SectionPage, useConfirmed, useSection } from '../../components/section';

const PAGE_SIZE = 50;
const TAGS = ['tags'] as const;

function CreateTagForm({ onCreated, onCancel }: { onCreated: (tag: Tag) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [isFavorite, setFavorite] = useState(false);
  const create = useMutation({
    mutationFn: () => answer(createTag({ client, body: { name: name.trim(), isFavorite } })),
    onSuccess: (created) => onCreated(created.data),
  });
  return (
    <MutationForm title="New tag" action={create} shown={['name']} submitLabel="Create tag" busyLabel="Creating…" onCancel={onCancel}>
      <TagNameField label="Name" name={name} onName={setName} error={create.error} />
      <label className="checkbox">
        <input type="checkbox" name="isFavorite" checked={isFavorite} onChange={(e) => setFavorite(e.target.checked)} /> Favourite (listed
        first when you tag links)
      </label>
    </MutationForm>
  );
}

/** A tag's name field, its error from the last refusal. */
function TagNameField({ label, name, onName, error }: { label: string; name: string; onName: (name: string) => void; error: unknown }) {
  return (
    <TextField
      label={label}
      name="name"
      required
      autoFocus
      maxLength={100}
      value={name}
      onChange={(e) => onName(e.target.value)}
      error={fieldErrors(error)['name']}
    />
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
        <strong>{tag.name}</strong> <RowButton label="Rename" of={tag.name} className="link-button" onClick={onEdit} />
      </span>
    );
  }
  return (
    <MutationForm action={rename} shown={['name']} submitLabel="Save" busyLabel="Saving…" onCancel={() => onDone()}>
      <TagNameField label={`New name for ${tag.name}`} name={name} onName={setName} error={rename.error} />
    </MutationForm>
  );
}

export function TagsPage() {
  const [search, setSearch] = useState('');
  const q = search.trim();
  const section = useSection({
    key: TAGS,
    filter: [q],
    pageSize: PAGE_SIZE,
    load: (page) => answer(listTags({ client, query: { ...page, ...(q ? { q } : {}) } })),
  });
  const [editing, setEditing] = useState<string | null>(null);
  const favourite = useMutation({
    mutationFn: (tag: Tag) => answer(updateTag({ client, path: { id: tag.id }, body: { isFavorite: !tag.isFavorite } })),
    onSuccess: () => section.refresh(),
  });
  const remove = useConfirmed({
    run: (tag: Tag) => answer(deleteTag({ client, path: { id: tag.id } })),
    done: (_answer, tag) => section.removed(`"${tag.name}" is deleted, and taken off its links.`),
  });
  const deleting = remove.target;
  return (
    <SectionPage
      section={section}
      title="Tags"
      createLabel="Create tag"
      intro="Tags group your links, so you can find, filter and export them together."
    >
      <MutationError error={favourite.error} />
      {section.creating && (
        <CreateTagForm
          onCancel={section.stopCreating}
          onCreated={(tag) => {
            section.stopCreating();
            section.setNotice(`"${tag.name}" is created.`);
            void section.refresh();
          }}
        />
      )}
      {(section.rows.length > 0 || q) && (
        <div className="search">
          <TextField
            label="Search tags"
            name="q"
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              section.setStart(0);
            }}
          />
        </div>
      )}
      <SectionList
        section={section}
        loading="Loading your tags"
        noMatch={q ? `No tag matches "${q}".` : undefined}
        empty={{
          title: 'No tags yet',
          createLabel: 'Create your first tag',
          text: 'Create a tag (say "campaign-spring" or "support"), then put it on links when you create or edit them.',
        }}
      >
        <DataTable
          caption="Your tags"
          rows={section.rows}
          rowKey={(tag) => tag.id}
          columns={[
            {
              header: 'Name',
              cell: (tag) => (
                <TagName
                  tag={tag}
                  editing={editing === tag.id}
                  onEdit={() => {
                    setEditing(tag.id);
                    section.setNotice('');
                  }}
                  onDone={(message) => {
                    setEditing(null);
                    if (message) {
                      section.setNotice(message);
                      void section.refresh();
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
            createdColumn<Tag>(),
            { header: 'Actions', cell: (tag) => <RowButton label="Delete" of={tag.name} danger onClick={() => remove.ask(tag)} /> },
          ]}
        />
        <Pager label="Tag pages" {...section.pager} />
      </SectionList>
      <ConfirmDialog {...remove.dialog} title={`Delete "${deleting?.name ?? ''}"?`} confirmLabel="Delete">
        <p>
          {deleting?.linkCount
            ? `It is taken off its ${deleting.linkCount} link${deleting.linkCount === 1 ? '' : 's'}; the links stay.`
            : 'No link carries it.'}{' '}
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </SectionPage>
  );
}
