import { QueryClient } from '@tanstack/react-query';
import { createLnkClient, revokeDashboardSession, grantDashboardToken } from '@lnk/sdk';
import { ApiError } from './errors';
import { Session } from './session';
import { sessionFetch } from './session-fetch';

/** The dashboard is served by the API it calls: same origin, no CORS. */
const origin = window.location.origin;

/** The header the session endpoints require (their CSRF defence, with the Origin check). */
const DASHBOARD_HEADER = { 'X-Lnk-Dashboard': '1' };

const sessionClient = createLnkClient({ baseUrl: origin });

export const session = new Session({
  async refresh() {
    const { data, error, response } = await grantDashboardToken({ client: sessionClient, headers: DASHBOARD_HEADER });
    if (response.status === 401) return null;
    if (!data) throw new ApiError(error ?? {}, response.status);
    return data.data;
  },
  async end() {
    const { error, response } = await revokeDashboardSession({ client: sessionClient, headers: DASHBOARD_HEADER });
    if (!response.ok) throw new ApiError(error ?? {}, response.status);
  },
});

/** Every API call of the dashboard: the generated SDK with the session's in-memory access token. */
export const client = createLnkClient({ baseUrl: origin, token: () => session.accessToken(), fetch: sessionFetch(session) });

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; a fault or a lost connection may.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status < 500),
      staleTime: 30_000,
      refetchOnWindowFocus: false,
    },
  },
});
