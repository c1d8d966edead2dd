import { LinkDomain, LinkDomains } from '../ports/link-ports';
import { LinkRepository, RedirectTarget } from '../ports/link.repository';
import { ResolveRedirectUseCase } from './resolve-redirect.use-case';

const target = (domainId: string | null, slug: string): RedirectTarget => ({ id: `${domainId}/${slug}`, ownerId: 'ada', domainId, slug, url: 'https://example.com/', name: slug, status: true, passwordHash: null });

describe('ResolveRedirectUseCase host cache', () => {
  it('stops answering for a custom domain as soon as it is told the domain lost its verification, not after the cache time', async () => {
    const verified = new Map<string, LinkDomain>([['go.example.com', { id: 'd1', name: 'go.example.com' }]]);
    const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
    const links = { findForRedirect: async (domainId: string | null, slug: string) => (domainId === 'd1' && slug === 'promo' ? target('d1', 'promo') : null) } as unknown as LinkRepository;
    const resolve = new ResolveRedirectUseCase(links, domains, { maxEntries: 100, ttlMs: 60_000 }, () => 0);

    expect((await resolve.execute('GO.example.com', 'promo'))?.domainId).toBe('d1');
    verified.delete('go.example.com');
    // Still cached: the clock has not moved.
    expect((await resolve.execute('go.example.com', 'promo'))?.domainId).toBe('d1');
    resolve.forgetHost('Go.Example.com');
    expect(await resolve.execute('go.example.com', 'promo')).toBeNull();
  });
});

describe('ResolveRedirectUseCase.isCustomDomain', () => {
  // A custom domain's `/` and unknown slugs belong to its owner: the service's home page or its
  // not-found redirect must not answer there (an owner's domain would advertise, or send visitors to, the operator's page).
  it('names only verified custom domains, whatever the case of the host, and forgets a domain that lost its verification', async () => {
    const verified = new Map<string, LinkDomain>([['go.example.com', { id: 'd1', name: 'go.example.com' }]]);
    const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
    const resolve = new ResolveRedirectUseCase({ findForRedirect: async () => null } as unknown as LinkRepository, domains, { maxEntries: 100, ttlMs: 60_000 }, () => 0);

    expect(await resolve.isCustomDomain('GO.example.com')).toBe(true);
    expect(await resolve.isCustomDomain('localhost')).toBe(false);
    verified.delete('go.example.com');
    resolve.forgetHost('go.example.com');
    expect(await resolve.isCustomDomain('go.example.com')).toBe(false);
  });
});
