import { ShortUrlBases } from './short-url-base';
import { shortUrlOf } from './links.presenter';

describe('ShortUrlBases', () => {
  const url = (bases: ShortUrlBases, scheme: 'http' | 'https', domain: string | null) => shortUrlOf(bases.of(scheme), 'promo', domain);

  it('writes custom domains with a fixed CUSTOM_DOMAIN_SCHEME whatever the request came with', () => {
    const bases = new ShortUrlBases({ shortBaseUrl: 'http://s.lnk.test', customDomainScheme: 'https' });
    expect(url(bases, 'http', 'go.example.com')).toBe('https://go.example.com/promo');
    expect(url(bases, 'https', null)).toBe('http://s.lnk.test/promo');
    expect(shortUrlOf(bases.fixed, 'promo', 'go.example.com')).toBe('https://go.example.com/promo');
  });

  it("follows the request's scheme with `request`, and SHORT_BASE_URL's where there is no request (the CLI)", () => {
    const bases = new ShortUrlBases({ shortBaseUrl: 'https://s.lnk.test', customDomainScheme: 'request' });
    expect(url(bases, 'http', 'go.example.com')).toBe('http://go.example.com/promo');
    expect(url(bases, 'https', 'go.example.com')).toBe('https://go.example.com/promo');
    expect(shortUrlOf(bases.fixed, 'promo', 'go.example.com')).toBe('https://go.example.com/promo');
    // Two bases only, made once: the list's presented JSON is kept per base.
    expect(bases.of('https')).toBe(bases.of('https'));
  });
});
