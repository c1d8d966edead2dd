import { escapeHtml } from '@lnk/shared/http';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem ' +
  'auto;padding:0 1rem;color:#222}.error{color:#a00}button{padding:.5rem 1rem}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${STYLE}</style></head>
<body>${body}</body></html>`;
}

/**
 * What the link in the mail opens: a question, not a change (a mail scanner fetching the link confirms
 * nothing). The button posts the link's token, the only proof, to the same path: relative, so it holds
 * behind a path prefix, and within the page's CSP (`form-action 'self'`, no script).
 */
export function emailConfirmationPage(email: string, token: string): string {
  return page(
    'Confirm your e-mail address',
    `<h1>Confirm your e-mail address</h1>
<p>An account asked to use <strong>${escapeHtml(email)}</strong> as its e-mail address and to sign in with it.</p>
<form method="post" action="verify-email">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Confirm</button>
</form>
<p>If it was not you, close this page and ignore the message: the address stays unconfirmed and the link expires.</p>`,
  );
}

/** What a person who pressed Confirm sees once the address is confirmed. */
export function emailVerifiedPage(email: string): string {
  return page(
    'E-mail address confirmed',
    `<h1>E-mail address confirmed</h1><p>${escapeHtml(email)} is now the confirmed address of your account. You can close this page.</p>`,
  );
}

/** A link that is not (or no longer) good: the same words whatever the reason, as the JSON answer. */
export function emailNotVerifiedPage(): string {
  return page(
    'Link not valid',
    `<h1>This link is not valid</h1>
<p class="error" role="alert">The verification link is invalid, used or expired. Ask for a new one from your account settings.</p>`,
  );
}
