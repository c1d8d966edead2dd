import type { Static } from '@lnk/shared/http';
import type { HomeSchema } from './home.schemas';

export const SERVICE_NAME = 'lnk';

/** What `/` tells an API client: the service, its version and where its documentation is. */
export function presentHome(publicBaseUrl: string, version: string): Static<typeof HomeSchema> {
  return { name: SERVICE_NAME, version, docs: `${publicBaseUrl}/docs`, openapi: `${publicBaseUrl}/openapi.json` };
}
