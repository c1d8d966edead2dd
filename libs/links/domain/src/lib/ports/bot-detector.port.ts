/** Crawlers, link-preview fetchers and command-line clients: redirected, never counted as visits. */
export abstract class BotDetector {
  abstract isBot(userAgent: string | undefined): boolean;
}
