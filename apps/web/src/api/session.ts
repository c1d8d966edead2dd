import type { DashboardSession } from '@lnk/sdk';

/** Who is signed in, as the dashboard shows it. */
export type SessionUser = DashboardSession['user'];

export type SessionState =
  { status: 'starting' } | { status: 'signed-in'; user: SessionUser } | { status: 'signed-out'; reason?: 'ended' | 'signed-out' };

/** What the session asks of the server (the generated SDK's session operations, in the app). */
export interface SessionServer {
  /** A new access token from the session cookie; null when there is no session (401). */
  refresh(): Promise<DashboardSession | null>;
  /** Revokes the session's tokens and clears its cookie. */
  end(): Promise<void>;
}

/** Runs `work` alone among this origin's tabs (Web Locks), or at once where the browser has none. */
export type ExclusiveRunner = <T>(work: () => Promise<T>) => Promise<T>;

export function webLocks(name: string): ExclusiveRunner {
  return (work) => (typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request(name, work) : work());
}

/** An access token is asked for again this long before it expires, so no request goes out with one about to lapse. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * The dashboard's session in the page's memory (never in localStorage or sessionStorage: a script that
 * gets into the page finds no token to carry away). The access token lives as long as the page, a reload
 * asks the server for a new one through the HttpOnly session cookie. Each refresh rotates the cookie's
 * refresh token, and presenting a rotated one again ends the whole session (replay detection), so
 * refreshes are never run twice at once: one at a time in this tab, and one at a time across tabs (Web
 * Locks), each tab sending the cookie the last refresh left.
 */
export class Session {
  private state: SessionState = { status: 'starting' };
  private access: { token: string; expiresAt: number } | null = null;
  private refreshing: Promise<string | null> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly server: SessionServer,
    private readonly exclusive: ExclusiveRunner = webLocks('lnk-dashboard-session'),
    private readonly now: () => number = Date.now,
  ) {}

  get current(): SessionState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** At page load: a session from the cookie, or signed out. */
  async start(): Promise<SessionState> {
    await this.accessToken();
    return this.state;
  }

  /** A valid access token for the next API request, refreshed first when close to expiry; undefined when signed out. */
  async accessToken(): Promise<string | undefined> {
    if (this.access && this.access.expiresAt - REFRESH_MARGIN_MS > this.now()) return this.access.token;
    if (this.state.status === 'signed-out') return undefined;
    return (await this.refresh()) ?? undefined;
  }

  /**
   * The API refused the token (401): it may have been revoked (a password change elsewhere). One refresh;
   * a session the server no longer has ends here.
   */
  async rejected(token: string): Promise<string | undefined> {
    if (this.access?.token === token) this.access = null;
    if (this.state.status === 'signed-out') return undefined;
    return (await this.refresh()) ?? undefined;
  }

  /** Revokes the session on the server, then forgets it here, whatever the server said. */
  async signOut(): Promise<void> {
    try {
      await this.exclusive(() => this.server.end());
    } finally {
      this.end('signed-out');
    }
  }

  private refresh(): Promise<string | null> {
    this.refreshing ??= this.exclusive(async () => {
      const session = await this.server.refresh();
      if (!session) {
        this.end('ended');
        return null;
      }
      this.access = { token: session.accessToken, expiresAt: this.now() + session.expiresIn * 1000 };
      this.set({ status: 'signed-in', user: session.user });
      return session.accessToken;
    }).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private end(reason: 'ended' | 'signed-out'): void {
    this.access = null;
    this.set({ status: 'signed-out', reason: this.state.status === 'starting' ? undefined : reason });
  }

  private set(state: SessionState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
