import { BowserClickDimensions } from './bowser-click-dimensions';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const ANDROID_FIREFOX = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';

describe('BowserClickDimensions', () => {
  const dimensions = new BowserClickDimensions();

  it('reads device type, browser and OS families from the User-Agent', () => {
    expect(dimensions.traitsOf(IPHONE, '8.8.8.8', undefined)).toMatchObject({ device: 'mobile', browser: 'Safari', os: 'iOS' });
    expect(dimensions.traitsOf(IPAD, '8.8.8.8', undefined)).toMatchObject({ device: 'tablet', os: 'iOS' });
    expect(dimensions.traitsOf(WINDOWS_CHROME, '8.8.8.8', undefined)).toMatchObject({
      device: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
    });
    expect(dimensions.traitsOf(ANDROID_FIREFOX, '8.8.8.8', undefined)).toMatchObject({
      device: 'mobile',
      browser: 'Firefox',
      os: 'Android',
    });
  });

  it('answers (unknown) for a missing or unreadable User-Agent', () => {
    expect(dimensions.traitsOf(undefined, '8.8.8.8', undefined)).toMatchObject({
      device: '(unknown)',
      browser: '(unknown)',
      os: '(unknown)',
    });
    expect(dimensions.traitsOf('x', '8.8.8.8', undefined)).toMatchObject({ device: '(unknown)', browser: '(unknown)', os: '(unknown)' });
  });

  it('keeps the Referer’s host only, lower-case, and (direct) without one', () => {
    expect(dimensions.traitsOf(IPHONE, '8.8.8.8', 'https://News.Example.com/item?id=42#c')).toMatchObject({ referrer: 'news.example.com' });
    expect(dimensions.traitsOf(IPHONE, '8.8.8.8', undefined)).toMatchObject({ referrer: '(direct)' });
    expect(dimensions.traitsOf(IPHONE, '8.8.8.8', '')).toMatchObject({ referrer: '(direct)' });
    expect(dimensions.traitsOf(IPHONE, '8.8.8.8', 'not a url')).toMatchObject({ referrer: '(unknown)' });
  });

  it('finds the country of a public IPv4 address (also IPv4-mapped), and (unknown) for IPv6 and non-public addresses', () => {
    expect(dimensions.traitsOf(IPHONE, '81.2.69.160', undefined).country).toBe('GB');
    expect(dimensions.traitsOf(IPHONE, '::ffff:8.8.8.8', undefined).country).toBe('US');
    for (const ip of [
      '10.1.2.3',
      '192.168.0.1',
      '172.16.5.5',
      '127.0.0.1',
      '100.64.0.1',
      '169.254.1.1',
      '2001:db8::1',
      '::1',
      '',
      '999.1.1.1',
    ]) {
      expect([ip, dimensions.traitsOf(IPHONE, ip, undefined).country]).toEqual([ip, '(unknown)']);
    }
  });

  it('remembers User-Agents and referrers within its bound, and not overlong ones', () => {
    const bounded = new BowserClickDimensions({ maxEntries: 2, maxRememberedLength: 200 });
    for (const ua of [IPHONE, IPAD, WINDOWS_CHROME, IPHONE, `${IPHONE} ${'x'.repeat(300)}`])
      bounded.traitsOf(ua, '8.8.8.8', `https://a.example/${ua.length}`);
    expect(bounded.size).toEqual({ agents: 2, referrers: 2 });
    expect(bounded.traitsOf(IPHONE, '8.8.8.8', undefined)).toEqual({
      referrer: '(direct)',
      country: 'US',
      device: 'mobile',
      browser: 'Safari',
      os: 'iOS',
    });
    // A flood of made-up User-Agents and referrers (a scanner's) does not grow what is remembered.
    for (let i = 0; i < 1_000; i++) bounded.traitsOf(`${IPHONE} ${i}`, '8.8.8.8', `https://${i}.example/`);
    expect(bounded.size).toEqual({ agents: 2, referrers: 2 });
  });
});
