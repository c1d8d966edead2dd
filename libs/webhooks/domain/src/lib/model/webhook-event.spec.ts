import { eventBody, eventBodyParts, seriesBody } from './webhook-event';

describe('event series (a click write stores a body split where the moment goes)', () => {
  const at = new Date('2025-03-04T05:06:07.089Z');
  const data = {
    linkId: 'l1',
    domainId: null,
    clickedAt: at.toISOString(),
    referrer: 'news.example.org',
    utm: { source: 'a"b\\c', medium: '\u0000', campaign: '🚀 \ud800' },
  };

  it('gives, for each moment, the body recorded one by one would have: the signed bytes do not change', () => {
    const parts = eventBodyParts('link.clicked', data, ['clickedAt']);
    expect(parts).not.toBeNull();
    expect(seriesBody(parts as string[], at)).toBe(eventBody({ type: 'link.clicked', at, data }));
    const other = new Date('2031-12-31T23:59:59.999Z');
    expect(seriesBody(parts as string[], other)).toBe(
      eventBody({ type: 'link.clicked', at: other, data: { ...data, clickedAt: other.toISOString() } }),
    );
  });

  it('refuses data that holds the placeholder itself: a visitor cannot move where the moment goes', () => {
    expect(eventBodyParts('link.clicked', { ...data, referrer: '\u0000moment\u0000' }, ['clickedAt'])).toBeNull();
    // A quote before it, escaped, reads as the placeholder's opening quote: one split too many, refused too.
    expect(eventBodyParts('link.clicked', { ...data, referrer: 'x"\u0000moment\u0000' }, ['clickedAt'])).toBeNull();
    // Held inside a longer value it is not the placeholder's JSON string: no harm, the split is right.
    const parts = eventBodyParts('link.clicked', { ...data, referrer: 'x\u0000moment\u0000' }, ['clickedAt']);
    expect(seriesBody(parts as string[], at)).toBe(
      eventBody({ type: 'link.clicked', at, data: { ...data, referrer: 'x\u0000moment\u0000' } }),
    );
  });
});
