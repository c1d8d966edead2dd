import { IsbotBotDetector } from './isbot-bot-detector';

const browsers = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
];
const bots = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'WhatsApp/2.23.20.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  // The Quickstart follows a short link with curl and expects no visit counted.
  'curl/8.5.0',
  'Wget/1.21.4',
];

describe('IsbotBotDetector', () => {
  // Statistics count people: crawlers, link previews and command-line clients would inflate them.
  it('takes crawlers, link-preview fetchers, headless browsers, curl and wget for bots, and browsers for visitors', () => {
    const detector = new IsbotBotDetector();
    for (const ua of bots) expect([ua, detector.isBot(ua)]).toEqual([ua, true]);
    for (const ua of browsers) expect([ua, detector.isBot(ua)]).toEqual([ua, false]);
    expect(detector.isBot(undefined)).toBe(false);
    expect(detector.isBot('')).toBe(false);
  });

  it('answers a remembered User-Agent as it did the first time', () => {
    const detector = new IsbotBotDetector();
    expect([detector.isBot(bots[0]), detector.isBot(bots[0]), detector.isBot(browsers[0]), detector.isBot(browsers[0])]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it(
    'answers each User-Agent right when bots and browsers alternate, remembered or ' +
      'not (a bot counted as a visit through the last-answer memo defended)',
    () => {
      const detector = new IsbotBotDetector({ maxEntries: 2, maxRememberedLength: 512 });
      const sequence = [bots[0], bots[0], browsers[0], bots[1], browsers[0], browsers[1], bots[0], `${bots[0]}`, browsers[2], bots[5]];
      expect(sequence.map((ua) => detector.isBot(ua))).toEqual(sequence.map((ua) => bots.includes(ua)));
    },
  );

  // A flood of distinct (or huge) User-Agents must not grow memory without bound.
  it('remembers at most maxEntries User-Agents, and none longer than maxRememberedLength', () => {
    const detector = new IsbotBotDetector({ maxEntries: 100, maxRememberedLength: 512 });
    for (let i = 0; i < 1_000; i++) detector.isBot(`Mozilla/5.0 Browser/${i}`);
    expect(detector.size).toBe(100);
    const huge = new IsbotBotDetector({ maxEntries: 100, maxRememberedLength: 512 });
    expect(huge.isBot(`Mozilla/5.0 ${'x'.repeat(10_000)} Googlebot/2.1`)).toBe(true);
    expect(huge.size).toBe(0);
  });
});
