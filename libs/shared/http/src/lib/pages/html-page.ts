/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** Headers of every page: not framable, no external resources, not cached, no referrer leaking codes. */
export function pageHeaders(formTarget?: string): Record<string, string> {
  const formAction = formTarget ? `'self' ${new URL(formTarget).origin}` : `'self'`;
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      `default-src 'none'; style-src 'unsafe-inline'; form-action ` + `${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** The quality the Accept header gives a media type: its most specific match (type/sub, then type/*, then *\/*). */
function qualityOf(accept: string, type: string): number {
  const [major] = type.split('/');
  let best: { specificity: number; q: number } = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range, ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((s) => s.trim());
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
