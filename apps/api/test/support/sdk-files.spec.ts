import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SDK_DOCUMENT, SDK_GENERATED, staleFiles } from './sdk-files';

describe('staleFiles: how a committed SDK differs from a fresh one', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lnk-stale-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A document and a generated folder with these files, under `name`. */
  function tree(name: string, document: string | null, files: Record<string, string>) {
    const target = { document: join(dir, name, 'openapi.json'), generated: join(dir, name, 'generated') };
    mkdirSync(target.generated, { recursive: true });
    if (document !== null) writeFileSync(target.document, document);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(target.generated, file, '..'), { recursive: true });
      writeFileSync(join(target.generated, file), text);
    }
    return target;
  }

  it('finds nothing when every byte is the same', () => {
    const files = { 'sdk.gen.ts': 'a', 'client/index.ts': 'b' };
    expect(staleFiles(tree('committed', '{}\n', files), tree('fresh', '{}\n', files))).toEqual([]);
  });

  it('names a changed, a missing and a left-over file, and a changed or missing document', () => {
    const generated = { 'sdk.gen.ts': 'new', 'client/index.ts': 'b', 'types.gen.ts': 't' };
    const fresh = tree('fresh', '{"a":1}\n', generated);
    expect(staleFiles(tree('committed', '{}\n', { 'sdk.gen.ts': 'old', 'client/index.ts': 'b', 'old.gen.ts': 'o' }), fresh)).toEqual([
      `${SDK_DOCUMENT} differs`,
      `${join(SDK_GENERATED, 'sdk.gen.ts')} differs`,
      `${join(SDK_GENERATED, 'types.gen.ts')} is missing`,
      `${join(SDK_GENERATED, 'old.gen.ts')} is not generated any more`,
    ]);
    expect(staleFiles(tree('undocumented', null, generated), fresh)).toEqual([`${SDK_DOCUMENT} is missing`]);
  });

  it('sees a difference of whitespace only (a formatter run on the generated files)', () => {
    const formatted = tree('committed', '{}\n', { 'sdk.gen.ts': 'a;\n' });
    expect(staleFiles(formatted, tree('fresh', '{}\n', { 'sdk.gen.ts': 'a;' }))).toEqual([`${join(SDK_GENERATED, 'sdk.gen.ts')} differs`]);
  });
});
