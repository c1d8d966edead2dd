// Shared with every HTTP face and with the short-URL handler (libs/links/adapter-http), which serves pages without Fastify.
export { escapeHtml, pageHeaders } from '@lnk/shared/http';

/** The quality the Accept header gives a media type: its most specific match (type/sub, then type/*, then *\/*). */
function qualityOf(accept: string, type: string): number {
  const [major] = type.split('/');
  let best: { specificity: number; q: number } = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    best = { specificity, q: Number.isFinite(value) ? value : 0 };
  }
  return best.q;
}

/**
 * True when the request asks for a page rather than JSON: its Accept ranks text/html above
 * application/json, as a browser's navigation does. `*\/*` (curl, fetch) and no Accept: JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return qualityOf(accept, 'text/html') > qualityOf(accept, 'application/json');
}
