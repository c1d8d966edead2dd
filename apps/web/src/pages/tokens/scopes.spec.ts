import { expiryOf, SCOPE_OPTIONS } from './scopes';

describe("the token form's values", () => {
  it('reads an expiry date as the end of that day where the person is, none as no expiry', () => {
    expect(expiryOf('')).toBeUndefined();
    expect(expiryOf('2027-03-04')).toBe(new Date(2027, 2, 4, 23, 59, 59, 999).toISOString());
    expect(expiryOf('04/03/2027')).toBeNull();
  });

  it('offers all fifteen scopes, each with its name', () => {
    expect(SCOPE_OPTIONS).toHaveLength(15);
    expect(SCOPE_OPTIONS.find((o) => o.value === 'tokens:delete')?.label).toBe('Revoke tokens, delete apps (tokens:delete)');
  });
});
