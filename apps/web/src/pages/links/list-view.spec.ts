import { DEFAULT_VIEW, searchOfView, viewOfSearch } from './list-view';

const TAG = '0123456789abcdef01234567';

describe("the links table's view in the address", () => {
  it('reads back every view it writes', () => {
    for (const view of [
      DEFAULT_VIEW,
      { expired: 'true', tag: TAG, sort: 'title', favorite: true },
      { expired: 'false', tag: '', sort: 'oldest', favorite: false },
    ] as const) {
      expect(viewOfSearch(searchOfView(view))).toEqual(view);
    }
  });

  it('writes nothing for the plain list, and only what differs from it', () => {
    expect(searchOfView(DEFAULT_VIEW)).toBe('');
    expect(searchOfView({ ...DEFAULT_VIEW, sort: 'title', favorite: true })).toBe('?sort=title&favorite=true');
  });

  // An address typed or edited by hand: what the API would refuse falls back to the default, never an error page.
  it('takes anything else in the address as the default', () => {
    expect(viewOfSearch('?sort=clicks&tag=not-an-id&favorite=yes&show=everything')).toEqual(DEFAULT_VIEW);
    expect(viewOfSearch('')).toEqual(DEFAULT_VIEW);
  });
});
