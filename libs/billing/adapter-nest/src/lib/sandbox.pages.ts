import type { SandboxSessionView } from '@lnk/billing/domain';
import { escapeHtml as escape } from '@lnk/shared/http';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}.price{font-size:1.6rem;margin:.6rem 0}.note{color:#555;font-size:.9rem}
button{padding:.55rem 1.2rem;font-size:1rem}.cancel{margin-left:1rem}.banner{background:#fff4d6;padding:.5rem .8rem;border-radius:4px}`;

const money = (price: number, currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(price);

const head = (title: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
  `content="width=device-width, initial-scale=1"><title>${escape(title)}</title><style>${STYLE}` +
  '</style></head>';

export function sandboxPaymentPage(session: SandboxSessionView): string {
  const paid = session.paid ? `<p role="status">This checkout is already paid.</p>` : '';
  return `${head(`Subscribe to ${session.planName}`)}
<body><p class="banner">Sandbox checkout: no real payment is taken.</p>
<h1>Subscribe to ${escape(session.planName)}</h1>
<p class="price">${escape(money(session.price, session.currency))} <span class="note">per month</span></p>
${paid}
<form method="post" action="/billing/sandbox/${encodeURIComponent(session.id)}">
<button type="submit">${session.paid ? 'Continue' : `Pay ${escape(money(session.price, session.currency))}`}</button>
<a class="cancel" href="${escape(session.cancelUrl)}">Cancel</a>
</form>
<p class="note">This page expires at ${escape(session.expiresAt.toISOString())}.</p>
</body></html>`;
}

export function sandboxGonePage(message: string, cancelUrl?: string): string {
  return (
    `${head('Checkout unavailable')}
<body><h1>Checkout unavailable</h1><p>${escape(message)}</p>${cancelUrl ? `<p><a href="${escape(cancelUrl)}">Back</a></p>` : ''}</body>` +
    '</html>'
  );
}
