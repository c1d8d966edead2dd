import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle } from '@nestjs/throttler';
import { RateLimitedError } from '@lnk/shared/kernel';
import type { AppConfig } from '@lnk/composition';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RateLimitGuard, skipThrottleKey } from './rate-limit.guard';

class Counted {
  handle(): string {
    return 'counted';
  }
  @SkipThrottle()
  skipped(): string {
    return 'skipped';
  }
}

@SkipThrottle()
class SkippedController {
  handle(): string {
    return 'skipped with its controller';
  }
}

const config = {
  rateLimits: { api: { limit: 2, seconds: 60 }, public: { limit: 2, seconds: 60 }, qr: { limit: 2, seconds: 60 } },
} as unknown as AppConfig;

function contextOf(controller: new () => object, handler: string): ExecutionContext {
  const request = { ip: '203.0.113.9' };
  const response = { headers: () => response };
  return {
    getHandler: () => (controller.prototype as Record<string, unknown>)[handler],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
}

describe('RateLimitGuard', () => {
  const storage = new MemoryThrottlerStorage();
  const guard = new RateLimitGuard({ throttlers: [{ name: 'default', ttl: 60_000, limit: 2 }] }, storage, new Reflector(), config);
  afterAll(() => storage.onApplicationShutdown());

  // The key is not exported by @nestjs/throttler: read off the decorator itself, it must still be what the decorator marks.
  it('reads the mark @SkipThrottle() leaves, for the throttler it names', () => {
    const key = skipThrottleKey('default');
    expect(Reflect.getMetadata(key, Counted.prototype.skipped)).toBe(true);
    expect(Reflect.getMetadata(key, Counted.prototype.handle)).toBeUndefined();
    expect(skipThrottleKey('other')).not.toBe(key);
  });

  // /health, /metrics, the Stripe webhook and /tls/ask carry @SkipThrottle(): a load balancer's probes must never be refused.
  it('does not count a handler or a controller marked @SkipThrottle(), and counts the others', async () => {
    for (let i = 0; i < 5; i++) {
      expect(await guard.canActivate(contextOf(Counted, 'skipped'))).toBe(true);
      expect(await guard.canActivate(contextOf(SkippedController, 'handle'))).toBe(true);
    }
    expect(await guard.canActivate(contextOf(Counted, 'handle'))).toBe(true);
    expect(await guard.canActivate(contextOf(Counted, 'handle'))).toBe(true);
    await expect(guard.canActivate(contextOf(Counted, 'handle'))).rejects.toBeInstanceOf(RateLimitedError);
  });
});
