import { RateLimitedError, ValidationError } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { MemoryDomainRepository } from '@lnk/domains/testing';
import { AllowCertificateUseCase, Domain, NoCertificateError, RepositoryCertificateHostLookup } from '@lnk/domains/domain';
import { CachedCertificateHostLookup } from './cached-certificate-host-lookup';

/** The fake repository, counting name lookups; `hold()` keeps their answers (read at once) from the caller until `release()`. */
class CountingDomains extends MemoryDomainRepository {
  readonly lookedUp: string[] = [];
  private gate: Promise<void> | null = null;
  private open: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = null;
    this.open();
  }

  override async findVerifiedByName(name: string): Promise<Domain | null> {
    this.lookedUp.push(name);
    const found = await super.findVerifiedByName(name);
    if (this.gate) await this.gate;
    return found;
  }
}

let time = 1_000_000;
const clock = clockReading(() => new Date(time));

describe('AllowCertificateUseCase over CachedCertificateHostLookup: may a TLS proxy obtain a certificate for this host', () => {
  let domains: CountingDomains;
  let ask: AllowCertificateUseCase;
  let hosts: CachedCertificateHostLookup;

  const verified = async (name: string) => {
    const domain = Domain.add({ id: `${name.length}`.padStart(24, '0') + name, ownerId: 'ada', name, challenge: 'c', now: clock.now() });
    await domains.insertWithinQuota(domain, 100);
    domain.markVerified(clock.now());
    await domains.markVerified(domain);
    return domain;
  };

  beforeEach(() => {
    domains = new CountingDomains();
    // As the API composes it: the use case over the cached lookup, which is told of changes.
    hosts = new CachedCertificateHostLookup(
      new RepositoryCertificateHostLookup(domains),
      { cache: { maxEntries: 100, allowedTtlMs: 60_000, refusedTtlMs: 10_000 }, maxLookups: 2 },
      () => time,
    );
    ask = new AllowCertificateUseCase(hosts, {
      servedHosts: ['lnk.test', 's.lnk.test'],
      ownHosts: ['lnk.test', 's.lnk.test', 'cname.lnk.test'],
    });
  });

  it("allows the service's own hosts, however the proxy spells them, without a lookup", async () => {
    await expect(ask.execute('LNK.test.')).resolves.toBe('lnk.test');
    await expect(ask.execute('s.lnk.test')).resolves.toBe('s.lnk.test');
    expect(domains.lookedUp).toEqual([]);
  });

  it('allows a verified custom domain, and refuses one added but not verified and an unknown name', async () => {
    await verified('go.example.com');
    const pending = Domain.add({ id: 'f'.repeat(24), ownerId: 'bob', name: 'pending.example.com', challenge: 'c', now: clock.now() });
    await domains.insertWithinQuota(pending, 100);
    await expect(ask.execute('Go.Example.com')).resolves.toBe('go.example.com');
    await expect(ask.execute('pending.example.com')).rejects.toBeInstanceOf(NoCertificateError);
    await expect(ask.execute('unknown.example.com')).rejects.toBeInstanceOf(NoCertificateError);
  });

  it.each([
    '',
    '127.0.0.1',
    '[::1]',
    '::1',
    'example.com:443',
    'https://example.com',
    '*.example.com',
    'a b.example.com',
    '-x-.example.com',
    `${'a'.repeat(63)}.`.repeat(4) + 'com',
  ])('refuses %p with VALIDATION_ERROR on domain, without a lookup', async (asked) => {
    const error = await ask.execute(asked).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.errors[0].name).toBe('domain');
    expect(domains.lookedUp).toEqual([]);
  });

  it('never looks up a name no account could have added: a single label, a host under the service, the DNS target', async () => {
    for (const name of ['localhost', 'www.lnk.test', 'cname.lnk.test', 'x.s.lnk.test'])
      await expect(ask.execute(name)).rejects.toBeInstanceOf(NoCertificateError);
    expect(domains.lookedUp).toEqual([]);
  });

  // A flood of handshakes naming one host must not become a flood of queries.
  it('keeps its answers: a name asked again is not looked up again until its time is up', async () => {
    await verified('go.example.com');
    await ask.execute('go.example.com');
    await ask.execute('go.example.com');
    await ask.execute('nope.example.com').catch(() => undefined);
    await ask.execute('nope.example.com').catch(() => undefined);
    expect(domains.lookedUp).toEqual(['go.example.com', 'nope.example.com']);
    time += 10_001;
    await ask.execute('go.example.com');
    await ask.execute('nope.example.com').catch(() => undefined);
    expect(domains.lookedUp).toEqual(['go.example.com', 'nope.example.com', 'nope.example.com']);
  });

  it('answers a domain verified after a refusal at once, once told (forget), and refuses it once it loses the verification', async () => {
    await expect(ask.execute('go.example.com')).rejects.toBeInstanceOf(NoCertificateError);
    const domain = await verified('go.example.com');
    hosts.hostChanged('go.example.com');
    await expect(ask.execute('go.example.com')).resolves.toBe('go.example.com');
    domain.loseVerification('gone', clock.now());
    await domains.loseVerification(domain);
    hosts.hostChanged('go.example.com');
    await expect(ask.execute('go.example.com')).rejects.toBeInstanceOf(NoCertificateError);
  });

  // Many made-up names at once (handshakes with random server names) must not queue up queries.
  it(
    'shares one lookup between concurrent asks for a name, and refuses an ask ' +
      'past the lookups allowed at once (RATE_LIMITED) without a lookup',
    async () => {
      await verified('go.example.com');
      domains.hold();
      const asks = [ask.execute('go.example.com'), ask.execute('go.example.com'), ask.execute('a.example.com').catch((e) => e)];
      await expect(ask.execute('b.example.com')).rejects.toBeInstanceOf(RateLimitedError);
      expect(domains.lookedUp).toEqual(['go.example.com', 'a.example.com']);
      domains.release();
      const [first, second, third] = await Promise.all(asks);
      expect([first, second]).toEqual(['go.example.com', 'go.example.com']);
      expect(third).toBeInstanceOf(NoCertificateError);
      await expect(ask.execute('b.example.com')).rejects.toBeInstanceOf(NoCertificateError);
    },
  );

  it('does not keep the answer of a lookup that ran across a change (it may predate it)', async () => {
    domains.hold();
    const before = ask.execute('go.example.com').catch((e) => e);
    await verified('go.example.com');
    hosts.hostChanged('go.example.com');
    domains.release();
    expect(await before).toBeInstanceOf(NoCertificateError);
    await expect(ask.execute('go.example.com')).resolves.toBe('go.example.com');
  });
});
