import type { Logger } from 'pino';
import type { AppConfig } from '@lnk/composition';
import { listeningUrls } from '../http-listener';

/**
 * The last lines of a start at `info`: where a person can open the service, and where its documentation
 * is. (Before them: the database's own lines, opening, ready, migrations.)
 */
export function logStarted(logger: Logger, config: AppConfig, port: number): void {
  const urls = listeningUrls(config.host, port);
  logger.info({ urls }, `listening on ${urls.join(', ')}`);
  const base = config.publicBaseUrl.replace(/\/+$/, '');
  logger.info(
    { docs: `${base}/docs`, openapi: `${base}/openapi.json` },
    `API docs at ${base}/docs (the OpenAPI document at ${base}/openapi.json)`,
  );
}

/** One line when a signal starts the shutdown; the database module says when it has closed. */
export function logShutdownSignals(logger: Logger, signals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): void {
  for (const signal of signals) {
    process.once(signal, () =>
      logger.info({ signal }, `shutting down (${signal}): new requests get 503, requests in flight and buffered clicks are finished`),
    );
  }
}
