import { createHmac, timingSafeEqual } from 'node:crypto';
import { escapeHtml as escape } from '@lnk/shared/http';
import type { AuthorizationRequest, AuthorizationRequestParams } from '@lnk/identity/domain';

/**
 * The authorization request rides through the page in a hidden field, signed with a key only the
 * server knows, so the browser cannot change the client, redirect URI, scopes or challenge.
 */
export class RequestSigner {
  constructor(private readonly key: Buffer) {}

  sign(params: AuthorizationRequestParams): { request: string; signature: string } {
    const request = Buffer.from(JSON.stringify(params)).toString('base64url');
    return { request, signature: this.mac(request) };
  }

  /** The signed parameters, or null when the field was altered. */
  open(request: string, signature: string): AuthorizationRequestParams | null {
    const expected = Buffer.from(this.mac(request));
    const actual = Buffer.from(signature);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
    try {
      return JSON.parse(Buffer.from(request, 'base64url').toString('utf8')) as AuthorizationRequestParams;
    } catch {
      return null;
    }
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(`authorize:${value}`).digest('base64url');
  }
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.45rem;box-sizing:border-box}
.error{color:#a00;margin:.8rem 0}.scopes{font-size:.9rem;color:#555}.buttons{margin-top:1.2rem;display:flex;gap:.6rem}
button{padding:.5rem 1rem}`;

export function renderAuthorizationPage(view: {
  request: AuthorizationRequest;
  signed: { request: string; signature: string };
  error?: string;
  email?: string;
}): string {
  const { request, signed } = view;
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize ${escape(request.client.name)}</title><style>${STYLE}</style></head>
<body>
<h1>${escape(request.client.name)} wants to use your account</h1>
<p class="scopes">It asks for: ${request.scopes.map(escape).join(', ')}</p>
${view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request" value="${escape(signed.request)}">
<input type="hidden" name="signature" value="${escape(signed.signature)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" value="${escape(view.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<label for="otp">One-time code (if two-factor sign-in is on)</label><input id="otp" name="otp" inputmode="numeric" autocomplete="one-` +
    `time-code">
<div class="buttons"><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>
</body></html>`
  );
}

export function renderErrorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title><style>${STYLE}</style></head>
<body><h1>This authorization request cannot go on</h1><p class="error">${escape(message)}</p></body></html>`;
}
