import type { DashboardSession } from '@lnk/sdk';
import { REFRESH_MARGIN_MS, Session, type SessionServer } from './session';

const user = { id: 'a'.repeat(24), email: 'ada@example.com', name: 'Ada' };
const answer = (n: number, expiresIn = 3600): DashboardSession => ({
  accessToken: `at_${n}`,
  tokenType: 'Bearer',
  expiresIn,
  scopes: ['user:read'],
  user,
});

/** A server whose refreshes answer in the order they are let go, counting them. */
class ServerStandIn implements SessionServer {
  refreshes = 0;
  ended = 0;
  session = true;
  failEnd = false;
  async refresh() {
    this.refreshes++;
    await Promise.resolve();
    return this.session ? answer(this.refreshes) : null;
  }
  async end() {
    this.ended++;
    if (this.failEnd) throw new Error('offline');
  }
}

/** One at a time, as Web Locks run work across tabs. */
function queue() {
  let tail: Promise<unknown> = Promise.resolve();
  let running = 0;
  let most = 0;
  const run = <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(async () => {
      running++;
      most = Math.max(most, running);
      try {
        return await work();
      } finally {
        running--;
      }
    });
    tail = next.catch(() => undefined);
    return next;
  };
  return { run, most: () => most };
}

describe('the dashboard session (access token in memory, refreshed through the cookie)', () => {
  let server: ServerStandIn;
  let now: number;
  let session: Session;

  beforeEach(() => {
    server = new ServerStandIn();
    now = 1_000_000;
    session = new Session(
      server,
      (work) => work(),
      () => now,
    );
  });

  it('starts signed in when the cookie holds a session, with the account it names', async () => {
    expect(session.current).toEqual({ status: 'starting' });
    expect(await session.start()).toEqual({ status: 'signed-in', user });
    expect(await session.accessToken()).toBe('at_1');
  });

  it('starts signed out, without a reason to show, when there is no session', async () => {
    server.session = false;
    expect(await session.start()).toEqual({ status: 'signed-out', reason: undefined });
    expect(await session.accessToken()).toBeUndefined();
  });

  it(
    'asks for one refresh however many requests want a token at once (a ' + 'rotated refresh token sent twice would end the session)',
    async () => {
      const tokens = await Promise.all([session.accessToken(), session.accessToken(), session.start(), session.accessToken()]);
      expect(server.refreshes).toBe(1);
      expect(tokens).toEqual(['at_1', 'at_1', { status: 'signed-in', user }, 'at_1']);
    },
  );

  it('runs each refresh inside the exclusive runner, so tabs never refresh at the same time', async () => {
    const runner = queue();
    const a = new Session(server, runner.run, () => now);
    const b = new Session(server, runner.run, () => now);
    await Promise.all([a.start(), b.start()]);
    expect(runner.most()).toBe(1);
    expect(server.refreshes).toBe(2);
  });

  it('keeps the token until a minute before it expires, then refreshes first', async () => {
    await session.start();
    now += 3600_000 - REFRESH_MARGIN_MS - 1;
    expect(await session.accessToken()).toBe('at_1');
    now += 2;
    expect(await session.accessToken()).toBe('at_2');
    expect(server.refreshes).toBe(2);
  });

  it('refreshes once when the API refuses the token, and ends when the server has no session left', async () => {
    await session.start();
    expect(await session.rejected('at_1')).toBe('at_2');
    server.session = false;
    expect(await session.rejected('at_2')).toBeUndefined();
    expect(session.current).toEqual({ status: 'signed-out', reason: 'ended' });
    expect(await session.rejected('at_2')).toBeUndefined();
    expect(server.refreshes).toBe(3);
  });

  it('signs out on the server, and forgets the token here even when the server cannot be reached', async () => {
    await session.start();
    const seen: string[] = [];
    session.subscribe(() => seen.push(session.current.status));
    server.failEnd = true;
    await expect(session.signOut()).rejects.toThrow('offline');
    expect(server.ended).toBe(1);
    expect(session.current).toEqual({ status: 'signed-out', reason: 'signed-out' });
    expect(await session.accessToken()).toBeUndefined();
    expect(seen).toEqual(['signed-out']);
  });
});
