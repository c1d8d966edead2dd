import { checkoutReturn, checkoutUrls, limitText, priceText, UNLIMITED, usageOf } from './usage';

describe('quota bars', () => {
  it('fills a bar by the share used, in words beside it', () => {
    expect(usageOf({ used: 25, limit: 100 })).toEqual({ unlimited: false, percent: 25, full: false, text: '25 of 100' });
  });

  it('says a quota is reached (what blocks the next link) and never draws past the end', () => {
    expect(usageOf({ used: 100, limit: 100 })).toMatchObject({ percent: 100, full: true });
    // An operator may lower a limit below what an account already holds.
    expect(usageOf({ used: 7, limit: 5 })).toMatchObject({ percent: 100, full: true, text: '7 of 5' });
    expect(usageOf({ used: 0, limit: 0 })).toMatchObject({ percent: 100, full: true });
  });

  it('draws no bar for the API\'s "no limit" value rather than a 2,147,483,647 cap', () => {
    expect(usageOf({ used: 3, limit: UNLIMITED })).toEqual({ unlimited: true, percent: 0, full: false, text: '3 (no limit)' });
    expect(limitText(UNLIMITED, 'tag', 'tags')).toBe('Unlimited tags');
    expect(limitText(5000, 'link', 'links')).toBe('5,000 links');
    expect(limitText(1, 'domain', 'domains')).toBe('1 domain');
  });
});

describe('plan prices', () => {
  it("reads the price in the currency's major unit, per cycle", () => {
    expect(priceText(29, 'USD', 'monthly')).toBe('$29.00 a month');
    expect(priceText(0, 'USD', 'monthly')).toBe('Free');
  });

  it('still shows a price in a currency code the browser does not know', () => {
    expect(priceText(5, 'X!', 'monthly')).toBe('5 X! a month');
  });
});

describe('the way back from checkout', () => {
  it('comes back to the plan page with the provider\'s session placeholder, or with "cancelled"', () => {
    expect(checkoutUrls('https://lnk.example/app/plan?checkout=old#x')).toEqual({
      successUrl: 'https://lnk.example/app/plan?checkout={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://lnk.example/app/plan?checkout=cancelled',
    });
  });

  it('reads a session to verify, a cancellation, or nothing', () => {
    expect(checkoutReturn('?checkout=cs_sandbox_4f0c2d9a')).toEqual({ kind: 'paid', sessionId: 'cs_sandbox_4f0c2d9a' });
    expect(checkoutReturn('?checkout=cancelled')).toEqual({ kind: 'cancelled' });
    expect(checkoutReturn('')).toEqual({ kind: 'none' });
  });

  it('ignores a crafted value in the address instead of sending it on (a link someone else made)', () => {
    expect(checkoutReturn(`?checkout=${'a'.repeat(300)}`)).toEqual({ kind: 'none' });
    expect(checkoutReturn('?checkout=%7BCHECKOUT_SESSION_ID%7D')).toEqual({ kind: 'none' });
    expect(checkoutReturn('?checkout=a%20b')).toEqual({ kind: 'none' });
  });
});
