import type { LinkListItem } from '@lnk/sdk';
import { csvCell, linksCsv, linksNdjson } from './downloads';
import { nextPageParam } from './paging';

const link = (over: Partial<LinkListItem>): LinkListItem => ({
  id: 'a'.repeat(24),
  slug: 's',
  url: 'https://example.com',
  title: null,
  description: null,
  domainId: null,
  status: true,
  hasPassword: false,
  shortUrl: 'https://lnk.test/s',
  clicks: 0,
  isFavorite: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

describe('exporting chosen links', () => {
  it('quotes cells with commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it("defuses cells a spreadsheet would run as a formula, the way the API's export does (an import takes the apostrophe off)", () => {
    expect(csvCell('=HYPERLINK("https://evil.example")')).toBe('"\'=HYPERLINK(""https://evil.example"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@sum')).toBe("'@sum");
    expect(csvCell("'=already")).toBe("''=already");
  });

  it('writes the columns an import reads, one line a link, and NDJSON one object a line', () => {
    const links = [link({ slug: 'a', title: 'First, best' }), link({ slug: 'b', url: 'https://example.com/b', description: 'x' })];
    expect(linksCsv(links)).toBe('url,slug,title,description\r\nhttps://example.com,a,"First, best",\r\nhttps://example.com/b,b,,x\r\n');
    expect(
      linksNdjson(links)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).slug),
    ).toEqual(['a', 'b']);
    expect(linksNdjson([])).toBe('');
  });
});

describe('paging through the links', () => {
  it('asks for the next page with the cursor the API answered, and for none at the end or after an empty page', () => {
    expect(nextPageParam('c2', 100)).toBe('c2');
    expect(nextPageParam(null, 50)).toBeUndefined();
    // A list that answers an empty page with a cursor ends the scrolling instead of asking forever.
    expect(nextPageParam('c3', 0)).toBeUndefined();
    // An empty cursor is no position: the table stops rather than asking for the first page again.
    expect(nextPageParam('', 100)).toBeUndefined();
  });
});
