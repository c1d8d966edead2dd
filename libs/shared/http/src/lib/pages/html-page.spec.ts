import { prefersHtml } from './html-page';

describe("prefersHtml: a page for a person's browser, JSON for every API client", () => {
  it('answers a page to what browsers send when a person opens an address', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
  });

  // An API client that asks for JSON, or takes anything (curl, fetch), must keep the envelope it parses.
  it('answers JSON to Accept: application/json, */*, no Accept, and JSON ranked at least as high as HTML', () => {
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('')).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json, text/html')).toBe(false);
    expect(prefersHtml('text/html;q=0.5, application/json')).toBe(false);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
    expect(prefersHtml('text/html;q=bogus, application/*;q=0.1')).toBe(false);
  });
});
