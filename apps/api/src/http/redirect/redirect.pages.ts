import { escapeHtml as escape } from '../html-page';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem;color:#222}
input{width:100%;padding:.45rem;box-sizing:border-box;margin:.4rem 0}button{padding:.5rem 1rem}.error{color:#a00}`;

export function notFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title><style>${STYLE}</style></head>
<body><h1>Link not found</h1><p>This short link does not exist or is turned off.</p></body></html>`;
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
