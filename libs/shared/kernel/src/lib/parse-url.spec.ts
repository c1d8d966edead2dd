import { parseUrl } from './parse-url';

describe('parseUrl', () => {
  it('reads URLs, internationalised ones included, and answers null for what is not one', () => {
    expect(parseUrl('https://exämple.com/päth')?.href).toBe('https://xn--exmple-cua.com/p%C3%A4th');
    expect(parseUrl('/x', 'https://a.example')?.href).toBe('https://a.example/x');
    expect(parseUrl('not a url')).toBeNull();
    expect(parseUrl('http://[::1')).toBeNull();
  });

  // URL.canParse, after V8 optimised it on ASCII input, answered false for every non-ASCII URL (Node 20/22):
  // links to internationalised domains were refused once the service had checked a few thousand others.
  it('still reads an internationalised domain after many thousands of ASCII URLs', () => {
    for (let i = 0; i < 50_000; i++) expect(parseUrl(`https://example.com/p/${i}`)).not.toBeNull();
    expect(parseUrl('https://bücher.example/')?.hostname).toBe('xn--bcher-kva.example');
  });
});
