import { escapeHtml as escape } from '@lnk/shared/http/pages';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem;color:#222}
input{width:100%;padding:.45rem;box-sizing:border-box;margin:.4rem 0}button{padding:.5rem 1rem}.error{color:#a00}`;

export function notFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title><style>${STYLE}</style></head>
<body><h1>Link not found</h1><p>This short link does not exist or is turned off.</p></body></html>`;
}

/** A link past its expiry or its visit limit, without an expiredUrl (410 Gone). */
export function expiredPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link expired</title><style>${STYLE}</style></head>
<body><h1>Link expired</h1><p>This short link has expired and no longer leads anywhere.</p></body></html>`;
}

/** The one form of a protected link; it posts back to the same short URL. */
export function passwordPage(slug: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Protected link</title><style>${STYLE}</style></head>
<body><h1>This link is protected</h1>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/${encodeURIComponent(slug)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="off" autofocus>
<button type="submit">Open link</button>
</form></body></html>`;
}

/**
 * The answer to the right password: a page that goes on to the destination by itself (meta refresh) or
 * by a click. A redirect here would put the destination's origin under the form's CSP form-action.
 */
export function onwardPage(destination: string): string {
  const href = escape(destination);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0; url=${href}">
<title>Opening link</title><style>${STYLE}</style></head>
<body><h1>Opening link</h1><p><a href="${href}" rel="noreferrer">Continue to the destination</a></p></body></html>`;
}

export function brokenDestinationPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link cannot be opened</title><style>${STYLE}</style></head>
<body><h1>Link cannot be opened</h1><p>This short link's destination is not a valid address.</p></body></html>`;
}

/** A request the short URL could not take (a body that is not a form, for one). */
export function unreadablePage(status: number): string {
  const text = status < 500 ? 'This request to a short link could not be read.' : 'This link cannot be opened right now.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link cannot be opened</title><style>${STYLE}</style></head>
<body><h1>Link cannot be opened</h1><p>${text}</p></body></html>`;
}
