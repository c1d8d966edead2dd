import { NotFoundError, PreconditionFailedError } from '@lnk/shared/kernel';
import { changeIfMatch, etagOf, type IfMatchPrecondition } from './etag';

interface Note {
  id: string;
  text: string;
}

/** A resource kept in memory, changed the way a use case does: `expected` asked of it as it is now. */
function notes(start: Note) {
  let note = start;
  return {
    change: async (expected: ((current: Note) => boolean) | undefined) => {
      if (expected && !expected(note)) throw new PreconditionFailedError('note');
      note = { ...note, text: `${note.text}!` };
      return note;
    },
    current: async () => note,
  };
}

function precondition(field: string | undefined): IfMatchPrecondition & { headers: Map<string, string> } {
  const headers = new Map<string, string>();
  return { field, headers, reply: { header: (name: string, value: string) => headers.set(name, value) } };
}

const present = (note: Note) => ({ id: note.id, text: note.text });

describe('changeIfMatch', () => {
  const first: Note = { id: 'n1', text: 'hello' };

  it('changes without If-Match, and answers the changed resource presented', async () => {
    const given = precondition(undefined);
    expect(await changeIfMatch(given, { present, ...notes(first) })).toEqual({ id: 'n1', text: 'hello!' });
    expect(given.headers.size).toBe(0);
  });

  it('changes when If-Match names the current ETag (among others, or as *)', async () => {
    for (const field of [etagOf(present(first)), `"other", ${etagOf(present(first))}`, '*']) {
      expect(await changeIfMatch(precondition(field), { present, ...notes(first) })).toEqual({ id: 'n1', text: 'hello!' });
    }
  });

  // Defends against a lost update: a client that read an older version cannot overwrite a newer one.
  it('refuses a stale or weak ETag with PRECONDITION_FAILED, and the refusal carries the current ETag', async () => {
    for (const field of ['"stale"', `W/${etagOf(present(first))}`]) {
      const given = precondition(field);
      const store = notes(first);
      await expect(changeIfMatch(given, { present, ...store })).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(given.headers.get('etag')).toBe(etagOf(present(await store.current())));
      expect(await store.current()).toEqual(first);
    }
  });

  it('writes no ETag on any other refusal', async () => {
    const given = precondition('"stale"');
    const change = async () => {
      throw new NotFoundError('Note');
    };
    await expect(changeIfMatch(given, { present, change, current: async () => first })).rejects.toBeInstanceOf(NotFoundError);
    expect(given.headers.size).toBe(0);
  });
});
