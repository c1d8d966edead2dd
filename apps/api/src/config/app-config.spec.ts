import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to port 3000 and the embedded database under ./.data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: expect.stringMatching(/\.data$/) });
    expect(config.bcryptCost).toBe(12);
    expect(config.bodyLimitBytes).toBe(1048576);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', DATABASE_POOL_SIZE: '4' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/app',
      poolSize: 4,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['BCRYPT_COST', '3'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['BODY_LIMIT', '-1'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
