import { EntityOf } from './entity';

interface NoteProps {
  id: string;
  text: string;
  labels: string[];
}

class Note extends EntityOf<NoteProps>()('id', 'text') {
  get labels(): string[] {
    return [...this.props.labels];
  }

  edit(text: string): void {
    this.props = { ...this.props, text };
  }
}

class Other extends EntityOf<{ id: string; text: string }>()('id') {}

describe('EntityOf', () => {
  it('reads the listed props, as they are after a change replaced them', () => {
    const note = new Note({ id: 'n1', text: 'first', labels: ['a'] });
    note.edit('second');
    expect([note.id, note.text, note.labels]).toEqual(['n1', 'second', ['a']]);
  });

  it('gives read-only accessors: assigning one throws and changes nothing', () => {
    const note = new Note({ id: 'n1', text: 'first', labels: [] });
    expect(() => {
      (note as { text: string }).text = 'forced';
    }).toThrow(TypeError);
    expect(note.text).toBe('first');
  });

  it('puts the accessors on the prototype, so an entity compares and copies by its props alone', () => {
    const note = new Note({ id: 'n1', text: 'first', labels: [] });
    expect(Object.keys(note)).toEqual(['props']);
    expect(note).toEqual(new Note({ id: 'n1', text: 'first', labels: [] }));
  });

  it('gives each entity only the accessors it lists', () => {
    expect('text' in new Other({ id: 'o1', text: 'hidden' })).toBe(false);
    expect(new Other({ id: 'o1', text: 'hidden' }).id).toBe('o1');
  });
});
