import type { Link } from '@lnk/sdk';
import { createBody, emptyLinkForm, formProblems, linkFormOf, updateBody } from './link-form-values';

const stored: Link = {
  id: 'a'.repeat(24),
  slug: 'spring',
  url: 'https://example.com/sale',
  title: 'Spring sale',
  description: null,
  domainId: null,
  status: true,
  hasPassword: true,
  shortUrl: 'https://lnk.test/spring',
  clicks: 3,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  expiresAt: '2027-01-31T23:00:00.000Z',
  expiredUrl: 'https://example.com/over',
  maxVisits: 100,
  visitsUsed: 4,
  redirectType: 307,
  targets: { device: { ios: 'https://apps.apple.com/x' }, country: { DE: 'https://example.de/sale' } },
  utm: { source: 'mail' },
  tags: [{ id: 'b'.repeat(24), name: 'promo' }],
};

describe("the link form's bodies", () => {
  it('sends only the destination and the state for a form left empty, so the service chooses the rest', () => {
    expect(createBody({ ...emptyLinkForm(), url: ' https://example.com/a ' })).toEqual({ url: 'https://example.com/a', status: true });
  });

  it('sends every option a person filled in, expiry as an instant with its offset', () => {
    const body = createBody({
      ...emptyLinkForm(),
      url: 'https://example.com',
      slug: 'launch',
      hasPassword: true,
      password: 'correct horse',
      expiresAt: '2027-02-01T09:30',
      expiredUrl: 'https://example.com/late',
      maxVisits: '50',
      redirectType: 301,
      devices: { ios: 'https://apple.example', android: '', desktop: '' },
      countries: [{ country: 'gb', url: 'https://example.co.uk' }],
      utm: { source: 'news', medium: '', campaign: 'spring', term: '', content: '' },
      tagIds: ['c'.repeat(24)],
    });
    expect(body).toEqual({
      url: 'https://example.com',
      status: true,
      slug: 'launch',
      hasPassword: true,
      password: 'correct horse',
      expiresAt: new Date(2027, 1, 1, 9, 30).toISOString(),
      expiredUrl: 'https://example.com/late',
      maxVisits: 50,
      redirectType: 301,
      targets: { device: { ios: 'https://apple.example' }, country: { GB: 'https://example.co.uk' } },
      utm: { source: 'news', campaign: 'spring' },
      tags: ['c'.repeat(24)],
    });
  });

  // A link never marked sends nothing on create (the API's default); edit sends what the checkbox shows, so unticking it unmarks the link.
  it('sends the favourite mark: on create only when ticked, on edit always', () => {
    expect(createBody({ ...emptyLinkForm(), url: 'https://example.com', isFavorite: true })).toEqual({
      url: 'https://example.com',
      status: true,
      isFavorite: true,
    });
    const favourite = { ...stored, isFavorite: true };
    expect(linkFormOf(favourite).isFavorite).toBe(true);
    expect(linkFormOf(stored).isFavorite).toBe(false);
    expect(updateBody({ ...linkFormOf(favourite), isFavorite: false }, favourite)).toMatchObject({ isFavorite: false });
  });

  it("keeps a link's password on edit unless a new one is typed or protection is turned off (a stored password is never sent back)", () => {
    const values = linkFormOf(stored);
    expect(values.password).toBe('');
    expect(updateBody(values, stored)).not.toHaveProperty('hasPassword');
    expect(updateBody({ ...values, password: 'a new secret' }, stored)).toMatchObject({ hasPassword: true, password: 'a new secret' });
    expect(updateBody({ ...values, hasPassword: false }, stored)).toMatchObject({ hasPassword: false });
    expect(updateBody({ ...values, hasPassword: false }, stored)).not.toHaveProperty('password');
  });

  it(
    'round-trips a stored link through the form unchanged, and clears what the ' +
      'form empties (null), so the link becomes what the form shows',
    () => {
      const same = updateBody(linkFormOf(stored), stored);
      expect(same).toMatchObject({
        url: stored.url,
        slug: 'spring',
        expiresAt: stored.expiresAt,
        expiredUrl: stored.expiredUrl,
        maxVisits: 100,
        redirectType: 307,
        targets: stored.targets,
        utm: { source: 'mail' },
        tags: ['b'.repeat(24)],
      });
      const emptied = updateBody(
        {
          ...linkFormOf(stored),
          expiresAt: '',
          expiredUrl: '',
          maxVisits: '',
          devices: { ios: '', android: '', desktop: '' },
          countries: [],
          utm: emptyLinkForm().utm,
          tagIds: [],
        },
        stored,
      );
      expect(emptied).toMatchObject({ expiresAt: null, expiredUrl: null, maxVisits: null, targets: null, utm: null, tags: [] });
    },
  );

  it('refuses a visit limit that is no whole number before sending (JSON would carry it as null, which clears the limit)', () => {
    expect(formProblems({ ...emptyLinkForm(), maxVisits: 'ten' })).toHaveProperty('maxVisits');
    expect(formProblems({ ...emptyLinkForm(), maxVisits: '2.5' })).toHaveProperty('maxVisits');
    expect(formProblems({ ...emptyLinkForm(), maxVisits: ' 10 ' })).toEqual({});
  });
});
