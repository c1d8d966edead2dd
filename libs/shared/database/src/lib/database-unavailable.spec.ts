import { isDatabaseTimeout, isDatabaseUnavailable } from './database-unavailable';
import { queryBounds } from './query-bounds';

describe('a database bound hit', () => {
  // Each of these becomes the API's 503 SERVICE_UNAVAILABLE with Retry-After, not a 500.
  it.each([
    [
      'statement_timeout (query_canceled)',
      { name: 'QueryFailedError', driverError: { code: '57014', message: 'canceling statement due to statement timeout' } },
    ],
    [
      'lock_timeout (lock_not_available)',
      { name: 'QueryFailedError', driverError: { code: '55P03', message: 'canceling statement due to lock timeout' } },
    ],
    ["node-pg's read timeout (a server that does not answer)", new Error('Query read timeout')],
    ["the pool's wait for a connection", new Error('timeout exceeded when trying to connect')],
  ])('is told apart: %s', (_, error) => {
    expect(isDatabaseTimeout(error)).toBe(true);
  });

  it('is not a wrong query, nor an unreachable database', () => {
    expect(isDatabaseTimeout({ driverError: { code: '23505', message: 'duplicate key value' } })).toBe(false);
    expect(isDatabaseTimeout(new Error('Query read timeouts are fun'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(false);
  });

  it('gives the client one second more than the server, and nothing when unbounded', () => {
    expect(queryBounds(5000, 2000)).toEqual({ statementTimeoutMs: 5000, lockTimeoutMs: 2000, readTimeoutMs: 6000 });
    expect(queryBounds(0)).toEqual({ statementTimeoutMs: 0, lockTimeoutMs: 0, readTimeoutMs: 0 });
  });
});
