import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { session } from '../api/client';
import type { SessionUser } from '../api/session';
import { ErrorBoundary } from './error-boundary';

/** The sections, in the order the navigation lists them. */
export const SECTIONS = [
  { href: '/links', label: 'Links' },
  { href: '/domains', label: 'Domains' },
  { href: '/tags', label: 'Tags' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/tokens', label: 'API tokens' },
  { href: '/oauth-apps', label: 'OAuth apps' },
  { href: '/account', label: 'Account' },
  { href: '/plan', label: 'Plan' },
] as const;

/** The page around every section: a skip link, the navigation, who is signed in, sign-out, the page. */
export function Layout({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [location] = useLocation();
  const [signingOut, setSigningOut] = useState(false);
  const signOut = async () => {
    setSigningOut(true);
    try {
      await session.signOut();
    } finally {
      setSigningOut(false);
    }
  };
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to the page
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          lnk
        </Link>
        <span className="who" title={user.email}>
          {user.email}
        </span>
        <button type="button" onClick={signOut} disabled={signingOut}>
          {signingOut ? 'Signing out…' : 'Sign out'}
        </button>
      </header>
      <nav className="sidebar" aria-label="Sections">
        <ul>
          {SECTIONS.map((section) => {
            const current =
              location === section.href || location.startsWith(`${section.href}/`) || (section.href === '/links' && location === '/');
            return (
              <li key={section.href}>
                <Link href={section.href} aria-current={current ? 'page' : undefined}>
                  {section.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main className="content" id="main" tabIndex={-1}>
        <ErrorBoundary resetKey={location}>{children}</ErrorBoundary>
      </main>
    </div>
  );
}
