import { createTestDatabase, TEST_DB_ENV } from './test-database';

describe('createTestDatabase', () => {
  const before = process.env[TEST_DB_ENV.kind];
  afterEach(() => {
    if (before === undefined) delete process.env[TEST_DB_ENV.kind];
    else process.env[TEST_DB_ENV.kind] = before;
  });

  // `npm run test:unit` sets 'none': a unit spec that opens a database would slow the fast loop for everyone.
  it('refuses in the unit run, saying to name the spec *.int-spec.ts', async () => {
    process.env[TEST_DB_ENV.kind] = 'none';
    await expect(createTestDatabase()).rejects.toThrow('name it *.int-spec.ts');
  });
});
