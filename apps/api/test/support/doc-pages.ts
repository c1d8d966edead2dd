import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import MarkdownIt from 'markdown-it';

/**
 * README.md and docs/**.md read as Markdown (markdown-it's tokens, so a fence inside a list or a link
 * inside code is seen as a reader sees it): their fenced blocks with the annotation before each, their
 * links and their headings' anchors.
 *
 * Annotations are HTML comments (invisible on GitHub) right before a fence, or anywhere for a page's:
 * - `<!-- docs-test: server postgres -->` | `server embedded` | `no server`: where the page's commands run;
 * - `<!-- docs-test: not run: <why> -->` before a ```sh block: it is not run, and says why;
 * - `<!-- docs-test: exits <N> -->`: the block's last command exits N (an error shown on purpose);
 * - `<!-- docs-test: may be retried … -->`: run again for a few seconds until its output matches;
 * - `<!-- quickstart-test: … -->`: the README Quickstart's own (quickstart.e2e-spec.ts).
 */

export const root = join(__dirname, '..', '..', '..', '..');

export type ServerKind = 'postgres' | 'embedded' | 'none';

export interface Block {
  line: number;
  language: string;
  body: string;
  /** The annotation right before it (`docs-test: …` or `quickstart-test: …`), without the comment's marks. */
  note: string | null;
  /** The ```text block right after it: what it prints. */
  shown: string | null;
  /** The h2 section it is in. */
  section: string;
}

export interface Link {
  line: number;
  href: string;
}

export interface Page {
  file: string;
  text: string;
  server: ServerKind | null;
  blocks: Block[];
  links: Link[];
  anchors: Set<string>;
  /** Annotations that are neither a page's nor followed by a fence. */
  strayNotes: { line: number; note: string }[];
}

const md = new MarkdownIt({ html: true });

/** The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`; repeats numbered. */
export function headingAnchor(text: string, seen: Map<string, number>): string {
  const base = text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
  const times = seen.get(base) ?? 0;
  seen.set(base, times + 1);
  return times ? `${base}-${times}` : base;
}

function noteOf(html: string): string | null {
  const found = /^<!--\s*((?:docs|quickstart)-test:[\s\S]*?)\s*-->\s*$/.exec(html.trim());
  return found ? found[1] : null;
}

export function readPage(file: string): Page {
  const text = readFileSync(join(root, file), 'utf8');
  const tokens = md.parse(text, {});
  const page: Page = { file, text, server: null, blocks: [], links: [], anchors: new Set(), strayNotes: [] };
  const seen = new Map<string, number>();
  let section = '';
  let pending: { line: number; note: string } | null = null;
  const flushPending = () => {
    if (pending) page.strayNotes.push(pending);
    pending = null;
  };
  tokens.forEach((token, index) => {
    const line = (token.map?.[0] ?? 0) + 1;
    if (token.type === 'html_block') {
      const note = noteOf(token.content);
      if (!note) return;
      const server = /^docs-test: (?:server (postgres|embedded)|(no server))$/.exec(note);
      if (server) {
        if (page.server) page.strayNotes.push({ line, note: `a second server annotation: ${note}` });
        page.server = (server[1] ?? 'none') as ServerKind;
        return;
      }
      flushPending();
      pending = { line, note };
      return;
    }
    if (token.type === 'heading_open') {
      const title = tokens[index + 1].content;
      page.anchors.add(headingAnchor(title, seen));
      if (token.tag === 'h2') section = title;
    }
    if (token.type === 'inline') {
      for (const child of token.children ?? []) {
        const href = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
        if (href !== null && href !== '') page.links.push({ line, href: String(href) });
      }
    }
    if (token.type === 'fence') {
      const language = token.info.trim().split(/\s+/)[0] ?? '';
      const previous = page.blocks[page.blocks.length - 1];
      const follows =
        previous &&
        previous.language === 'sh' &&
        previous.shown === null &&
        tokens[index - 1]?.type === 'fence' &&
        tokens[index - 1]?.map?.[1] === token.map?.[0];
      if (language === 'text' && follows && !pending) {
        previous.shown = token.content.replace(/\n$/, '');
        return;
      }
      page.blocks.push({ line, language, body: token.content.replace(/\n$/, ''), note: pending?.note ?? null, shown: null, section });
      pending = null;
      return;
    }
    if (token.type.endsWith('_open') || token.type === 'inline') flushPending();
  });
  flushPending();
  return page;
}

/** README.md, CONTRIBUTING.md and every Markdown file under docs/, as paths from the repository's root. */
export function documentationFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', 'CONTRIBUTING.md', ...walk('docs').sort()].map((file) => relative(root, join(root, file)));
}
