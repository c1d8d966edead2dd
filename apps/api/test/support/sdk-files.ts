import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where the committed SDK lives, relative to the repository. */
export const SDK_DOCUMENT = join('libs', 'sdk', 'openapi.json');
export const SDK_GENERATED = join('libs', 'sdk', 'src', 'generated');

/** One copy of the SDK's generated files. */
export interface SdkFiles {
  /** The OpenAPI document it is generated from. */
  document: string;
  /** The folder of the generated client. */
  generated: string;
}

/** Every file under a folder, by its path relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** How `committed` differs from `fresh`, file by file (missing, left over, other bytes), each named as in the repository. */
export function staleFiles(committed: SdkFiles, fresh: SdkFiles): string[] {
  const problems: string[] = [];
  if (!existsSync(committed.document)) problems.push(`${SDK_DOCUMENT} is missing`);
  else if (!readFileSync(committed.document).equals(readFileSync(fresh.document))) problems.push(`${SDK_DOCUMENT} differs`);
  const same = (file: string) => readFileSync(join(committed.generated, file)).equals(readFileSync(join(fresh.generated, file)));
  const kept = new Set(filesUnder(committed.generated));
  for (const file of filesUnder(fresh.generated)) {
    const name = join(SDK_GENERATED, file);
    if (!kept.delete(file)) problems.push(`${name} is missing`);
    else if (!same(file)) problems.push(`${name} differs`);
  }
  for (const file of kept) problems.push(`${join(SDK_GENERATED, file)} is not generated any more`);
  return problems;
}
