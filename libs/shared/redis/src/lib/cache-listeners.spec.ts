import { CACHE_CHANNELS } from './channels';
import { listenToOtherInstances } from './cache-listeners';

type Handler = (message: unknown) => void;

/** A bus that records what is subscribed, so a test can deliver messages as Redis would. */
function recordingBus() {
  const handlers = new Map<string, Handler>();
  return {
    channels: () => [...handlers.keys()],
    deliver: (channel: string, message: unknown) => handlers.get(channel)?.(message),
    subscribe: async (channel: string, handler: Handler) => void handlers.set(channel, handler),
  };
}

// One place for both apps' subscriptions (the API and the redirect app): these defend that each listener
// hears its channel with the message's fields, that a malformed message (any instance can publish) is
// dropped rather than applied, and that an app hears only the channels of the caches it keeps.
describe('listenToOtherInstances', () => {
  it('applies well-formed messages to their listeners and ignores malformed ones', async () => {
    const bus = recordingBus();
    const heard: unknown[][] = [];
    await listenToOtherInstances(bus, {
      linkChanged: (domainId, slug) => heard.push(['link', domainId, slug]),
      tokensRevoked: () => heard.push(['tokens']),
      accountChanged: (userId) => heard.push(['account', userId]),
      webhooksChanged: () => heard.push(['webhooks']),
      domainChanged: (name) => heard.push(['domain', name]),
      linksChanged: (ownerId) => heard.push(['lists', ownerId]),
    });
    expect(bus.channels()).toEqual([
      CACHE_CHANNELS.linkChanged,
      CACHE_CHANNELS.tokensRevoked,
      CACHE_CHANNELS.accountChanged,
      CACHE_CHANNELS.webhooksChanged,
      CACHE_CHANNELS.domainChanged,
      CACHE_CHANNELS.linksChanged,
    ]);
    bus.deliver(CACHE_CHANNELS.linkChanged, { domainId: null, slug: 'promo' });
    bus.deliver(CACHE_CHANNELS.linkChanged, { domainId: 'd1', slug: 'spring' });
    bus.deliver(CACHE_CHANNELS.linkChanged, { domainId: 7, slug: 'promo' });
    bus.deliver(CACHE_CHANNELS.linkChanged, null);
    bus.deliver(CACHE_CHANNELS.tokensRevoked, {});
    bus.deliver(CACHE_CHANNELS.accountChanged, { userId: 'u1' });
    bus.deliver(CACHE_CHANNELS.accountChanged, { userId: ['u1'] });
    bus.deliver(CACHE_CHANNELS.webhooksChanged, {});
    bus.deliver(CACHE_CHANNELS.domainChanged, { name: 'go.example.com' });
    bus.deliver(CACHE_CHANNELS.domainChanged, 'go.example.com');
    bus.deliver(CACHE_CHANNELS.linksChanged, { ownerId: 'u2' });
    bus.deliver(CACHE_CHANNELS.linksChanged, { owner: 'u2' });
    expect(heard).toEqual([
      ['link', null, 'promo'],
      ['link', 'd1', 'spring'],
      ['tokens'],
      ['account', 'u1'],
      ['webhooks'],
      ['domain', 'go.example.com'],
      ['lists', 'u2'],
    ]);
  });

  it('subscribes only to the channels of the listeners given', async () => {
    const bus = recordingBus();
    await listenToOtherInstances(bus, { linkChanged: () => undefined, webhooksChanged: () => undefined, domainChanged: () => undefined });
    expect(bus.channels()).toEqual([CACHE_CHANNELS.linkChanged, CACHE_CHANNELS.webhooksChanged, CACHE_CHANNELS.domainChanged]);
  });
});
