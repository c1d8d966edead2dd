import { escapeHtml } from '../html-page';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}.error{color:#a00}';

/** What a person who clicked the link in the mail sees once the address is confirmed. */
export function emailVerifiedPage(email: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>E-mail address confirmed</title><style>${STYLE}</style></head>
<body><h1>E-mail address confirmed</h1><p>${escapeHtml(email)} is now the confirmed address of your account. You can close this page.</p></body></html>`;
}

/** A link that is not (or no longer) good: the same words whatever the reason, as the JSON answer. */
export function emailNotVerifiedPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link not valid</title><style>${STYLE}</style></head>
<body><h1>This link is not valid</h1><p class="error" role="alert">The verification link is invalid, used or expired. Ask for a new one from your account settings.</p></body></html>`;
}
