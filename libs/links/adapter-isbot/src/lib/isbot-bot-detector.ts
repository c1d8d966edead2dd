import { isbot } from 'isbot';
import { BotDetector } from '@lnk/links/domain';
import { BoundedCache } from '@lnk/shared/cache';

export interface IsbotBotDetectorOptions {
  /** User-Agents remembered; past it the least recently seen is forgotten. */
  maxEntries: number;
  /** Longer User-Agents are checked every time, not remembered (a flood of 16 KB headers must not fill memory). */
  maxRememberedLength: number;
}

/**
 * Bots by the `isbot` package's list (crawlers, link previews, HTTP libraries, curl and wget), remembered
 * per User-Agent (a bounded cache of shared-cache): isbot's pattern costs about 1.5 µs a call, a lookup tens of ns, and visitors'
 * User-Agents repeat. A flood of distinct User-Agents costs what isbot costs, and no more memory than the bound.
 */
export class IsbotBotDetector extends BotDetector {
  private readonly known: BoundedCache<string, boolean>;

  constructor(private readonly options: IsbotBotDetectorOptions = { maxEntries: 10_000, maxRememberedLength: 512 }) {
    super();
    this.known = new BoundedCache({ maxEntries: options.maxEntries });
  }

  isBot(userAgent: string | undefined): boolean {
    if (!userAgent) return false;
    // The User-Agent of the request before, compared as it is: a fresh header string has no hash yet, and
    // hashing 100-odd characters for the map costs more than comparing them.
    if (userAgent === this.last) return this.lastBot;
    const known = this.known.get(userAgent);
    if (known !== undefined) return this.remember(userAgent, known);
    const bot = isbot(userAgent);
    if (userAgent.length <= this.options.maxRememberedLength) this.known.set(userAgent, bot);
    return this.remember(userAgent, bot);
  }

  private last = '';
  private lastBot = false;

  private remember(userAgent: string, bot: boolean): boolean {
    if (userAgent.length <= this.options.maxRememberedLength) {
      this.last = userAgent;
      this.lastBot = bot;
    }
    return bot;
  }

  /** How many User-Agents are remembered (for tests). */
  get size(): number {
    return this.known.size;
  }
}
