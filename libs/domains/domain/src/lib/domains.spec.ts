import { Clock, IdGenerator, NotFoundError, QuotaExceededError, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { MemoryDomainRepository } from '@lnk/domains/testing';
import { Domain, DomainNotVerifiedError } from './model/domain.entity';
import { dnsRecordFor, normalizeDomainName } from './model/domain-name';
import { ChallengeGenerator } from './ports/challenge-generator.port';
import { AddressAnswer, DnsAnswer, DnsResolver, TxtAnswer } from './ports/dns-resolver.port';
import { DomainUsage } from './ports/domain-usage.port';
import { DomainVerificationListener } from './ports/domain-verification-listener.port';
import { AddDomainUseCase } from './use-cases/add-domain.use-case';
import { DeleteDomainUseCase } from './use-cases/delete-domain.use-case';
import { RecheckDomainsUseCase } from './use-cases/recheck-domains.use-case';
import { VerifyDomainUseCase } from './use-cases/verify-domain.use-case';

/** A zone the test writes: CNAMEs, TXT, A and AAAA records by name; a name may instead time out or fail. */
class Zone extends DnsResolver {
  readonly cnames = new Map<string, string>();
  readonly txts = new Map<string, string[]>();
  readonly addresses = new Map<string, { A?: string[]; AAAA?: string[] }>();
  failure: { kind: 'timeout' } | { kind: 'error'; message: string } | null = null;
  /** Only address lookups of this type fail this way (the other family answers). */
  addressFailure: { type: 'A' | 'AAAA'; kind: 'timeout' } | null = null;
  readonly asked: string[] = [];
  async cnameOf(name: string): Promise<DnsAnswer> {
    this.asked.push(`CNAME ${name}`);
    if (this.failure) return this.failure;
    const target = this.cnames.get(name);
    return target ? { kind: 'cname', targets: [target] } : { kind: 'none' };
  }
  async txtOf(name: string): Promise<TxtAnswer> {
    this.asked.push(`TXT ${name}`);
    if (this.failure) return this.failure;
    const records = this.txts.get(name);
    return records ? { kind: 'txt', records } : { kind: 'none' };
  }
  async addressesOf(name: string, type: 'A' | 'AAAA'): Promise<AddressAnswer> {
    this.asked.push(`${type} ${name}`);
    if (this.failure) return this.failure;
    if (this.addressFailure?.type === type) return { kind: this.addressFailure.kind };
    // As a resolver does, a CNAME is followed to its target's addresses.
    const records = this.addresses.get(this.cnames.get(name) ?? name)?.[type];
    return records?.length ? { kind: 'addresses', addresses: records } : { kind: 'none' };
  }
  /** Publishes everything a domain needs. */
  publish(domain: Domain, target = 'cname.lnk.test') {
    this.txts.set(domain.challengeName, [domain.challenge]);
    this.cnames.set(domain.name, target);
  }
}

class Changes extends DomainVerificationListener {
  readonly names: string[] = [];
  verificationChanged(name: string) {
    this.names.push(name);
  }
}

let n = 0;
const ids: IdGenerator = { next: () => (n++).toString(16).padStart(24, '0') };
let m = 0;
const challenges: ChallengeGenerator = { next: () => `challenge-${m++}` };
let time = new Date('2026-02-03T04:05:06.007Z').getTime();
const clock: Clock = clockReading(() => new Date(time));
const quota: QuotaPolicy = { limitFor: async () => 2 };
const own = ['s.lnk.test', 'cname.lnk.test'];

describe('domain names', () => {
  it.each([
    ['Go.Example.COM.', 'go.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example.org', 'a-b.c-d.example.org'],
  ])('normalises %p to %p', (input, output) => {
    expect(normalizeDomainName(input, own)).toBe(output);
  });

  it.each([
    '',
    '   ',
    'localhost',
    '127.0.0.1',
    '10.0.0.1',
    '[::1]',
    'example.com:80',
    'http://example.com',
    'example.com/x',
    'user@example.com',
    '*.example.com',
    '-a.example.com',
    'a-.example.com',
    'a..example.com',
    `${'a'.repeat(64)}.example.com`,
    'example.123',
    's.lnk.test',
    'x.s.lnk.test',
    'cname.lnk.test',
    'exa mple.com',
  ])('refuses %p on name', (input) => {
    expect(() => normalizeDomainName(input, own)).toThrow(ValidationError);
    try {
      normalizeDomainName(input, own);
    } catch (error) {
      expect((error as ValidationError).errors[0].name).toBe('name');
    }
  });

  it('tells the owner which record to create', () => {
    expect(dnsRecordFor('cname.lnk.test')).toBe('CNAME cname.lnk.test');
  });
});

describe('domain use cases', () => {
  let repo: MemoryDomainRepository;
  let dns: Zone;
  let changes: Changes;
  let add: AddDomainUseCase;
  let verify: VerifyDomainUseCase;
  let recheck: RecheckDomainsUseCase;

  beforeEach(() => {
    repo = new MemoryDomainRepository();
    dns = new Zone();
    changes = new Changes();
    add = new AddDomainUseCase({ domains: repo, quota, ids, challenges, clock, config: { ownHosts: own } });
    verify = new VerifyDomainUseCase({
      domains: repo,
      dns,
      clock,
      listener: changes,
      config: { target: { host: 'cname.lnk.test', addresses: [] } },
    });
    recheck = new RecheckDomainsUseCase({
      domains: repo,
      dns,
      clock,
      listener: changes,
      config: { target: { host: 'cname.lnk.test', addresses: [] }, batchSize: 2 },
    });
  });
  const stored = (id: string) => repo.stored(id);

  it(
    'adds unverified with a challenge of its own, refuses the same name twice ' +
      'and a name another account verified, and stops at the quota',
    async () => {
      const d = await add.execute('ada', 'go.example.com');
      expect(d).toMatchObject({
        name: 'go.example.com',
        isVerified: false,
        verifiedAt: null,
        challengeName: '_lnk-challenge.go.example.com',
        challenge: expect.any(String),
      });
      await expect(add.execute('ada', 'GO.example.com')).rejects.toMatchObject({ errors: [{ name: 'name' }] });
      dns.publish(d);
      await verify.execute('ada', d.id);
      await expect(add.execute('bob', 'go.example.com')).rejects.toMatchObject({
        errors: [{ name: 'name', error: expect.stringContaining('another account') }],
      });
      await add.execute('ada', 'two.example.com');
      await expect(add.execute('ada', 'three.example.com')).rejects.toBeInstanceOf(QuotaExceededError);
    },
  );

  it(
    'gives two accounts adding one name different challenges, and verifies only the one ' +
      'whose challenge is published (pre-claiming a name someone pointed here)',
    async () => {
      const victims = await add.execute('ada', 'go.example.com');
      const attackers = await add.execute('mallory', 'go.example.com');
      expect(attackers.challenge).not.toBe(victims.challenge);
      // The owner has pointed the name at the service and published their challenge, but not yet clicked verify.
      dns.publish(victims);
      const refused = await verify.execute('mallory', attackers.id).catch((e) => e);
      expect(refused).toBeInstanceOf(DomainNotVerifiedError);
      expect(refused.message).toBe("DNS has no TXT record _lnk-challenge.go.example.com with this domain's challenge");
      expect(stored(attackers.id)?.isVerified).toBe(false);
      await expect(verify.execute('ada', victims.id)).resolves.toMatchObject({ isVerified: true });
      expect(changes.names).toEqual(['go.example.com']);
    },
  );

  it('refuses a CNAME alone: the TXT challenge proves control of the name', async () => {
    const d = await add.execute('ada', 'go.example.com');
    dns.cnames.set('go.example.com', 'cname.lnk.test');
    await expect(verify.execute('ada', d.id)).rejects.toThrow(
      "DNS has no TXT record _lnk-challenge.go.example.com with this domain's challenge",
    );
    expect(stored(d.id)?.isVerified).toBe(false);
  });

  it.each<[string, (zone: Zone, d: Domain) => void, string]>([
    [
      'nothing',
      () => undefined,
      "DNS has no TXT record _lnk-challenge.go.example.com with this domain's " +
        'challenge and no CNAME record go.example.com -> cname.lnk.test',
    ],
    [
      'the TXT only',
      (zone, d) => zone.txts.set(d.challengeName, [d.challenge]),
      'DNS has no CNAME record go.example.com -> cname.lnk.test',
    ],
    [
      'a CNAME elsewhere',
      (zone, d) => zone.publish(d, 'internal-host.corp.example'),
      'DNS has no CNAME record go.example.com -> cname.lnk.test',
    ],
    [
      'another TXT value',
      (zone, d) => (zone.publish(d), zone.txts.set(d.challengeName, ['secret-internal-value'])),
      "DNS has no TXT record _lnk-challenge.go.example.com with this domain's challenge",
    ],
    ['a time-out', (zone) => (zone.failure = { kind: 'timeout' }), 'The DNS lookup for go.example.com did not complete; try again shortly'],
    [
      'a resolver error',
      (zone) => (zone.failure = { kind: 'error', message: 'ESERVFAIL' }),
      'The DNS lookup for go.example.com did not complete; try again shortly',
    ],
  ])(
    'with %s in DNS, refuses verification naming only the expected record (no DNS lookup tool through the server)',
    async (_, arrange, message) => {
      const d = await add.execute('ada', 'go.example.com');
      arrange(dns, d);
      const error = await verify.execute('ada', d.id).catch((e) => e);
      expect(error).toBeInstanceOf(DomainNotVerifiedError);
      expect(error.message).toBe(message);
      expect(error.message).not.toMatch(/internal|secret|SERVFAIL/);
      expect(stored(d.id)?.isVerified).toBe(false);
    },
  );

  it('verifies with the TXT challenge and a CNAME to the target whatever its case and trailing dot, once', async () => {
    const d = await add.execute('ada', 'go.example.com');
    dns.publish(d, 'CNAME.LNK.TEST.');
    dns.txts.set(d.challengeName, ['v=spf1 -all', ` ${d.challenge} `]);
    const verified = await verify.execute('ada', d.id);
    expect(verified).toMatchObject({ isVerified: true, verifiedAt: clock.now() });
    expect(stored(d.id)).toMatchObject({ isVerified: true, verifiedAt: clock.now() });
    dns.cnames.clear();
    await expect(verify.execute('ada', d.id)).resolves.toMatchObject({ isVerified: true });
    await expect(verify.execute('bob', d.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it(
    're-checks verified domains in batches: records gone takes the ' +
      'verification away and says why and when (takeover of a dangling name)',
    async () => {
      const kept = await add.execute('ada', 'kept.example.com');
      const gone = await add.execute('ada', 'gone.example.com');
      const third = await add.execute('bob', 'third.example.com');
      for (const d of [kept, gone, third]) {
        dns.publish(d);
        await verify.execute(d.ownerId, d.id);
      }
      changes.names.length = 0;
      time += 60_000;
      dns.cnames.delete('gone.example.com');
      dns.txts.delete(third.challengeName);

      expect(await recheck.execute()).toEqual({ checked: 3, lost: 2 });
      expect(stored(kept.id)).toMatchObject({ isVerified: true, verificationLostAt: null, checkedAt: clock.now() });
      expect(stored(gone.id)).toMatchObject({
        isVerified: false,
        verifiedAt: null,
        verificationLostAt: clock.now(),
        verificationLostReason: 'DNS has no CNAME record gone.example.com -> cname.lnk.test',
      });
      expect(stored(third.id)).toMatchObject({
        isVerified: false,
        verificationLostReason: "DNS has no TXT record _lnk-challenge.third.example.com with this domain's challenge",
      });
      expect(changes.names.sort()).toEqual(['gone.example.com', 'third.example.com']);
      expect(await repo.findVerifiedByName('gone.example.com')).toBeNull();

      // Nothing is due again until it is older than asked.
      time += 1000;
      expect(await recheck.execute({ minAgeMs: 60_000 })).toEqual({ checked: 0, lost: 0 });
    },
  );

  it('keeps a domain verified when the re-check gets no sure answer (a time-out is not a missing record)', async () => {
    const d = await add.execute('ada', 'go.example.com');
    dns.publish(d);
    await verify.execute('ada', d.id);
    time += 60_000;
    dns.failure = { kind: 'timeout' };
    expect(await recheck.execute()).toEqual({ checked: 1, lost: 0 });
    expect(stored(d.id)).toMatchObject({ isVerified: true, checkedAt: clock.now() });
    dns.failure = { kind: 'error', message: 'ESERVFAIL' };
    time += 60_000;
    expect(await recheck.execute()).toEqual({ checked: 1, lost: 0 });
    expect(stored(d.id)?.isVerified).toBe(true);
  });

  it('lets the owner verify again once the records are back, and then another account whose challenge is published', async () => {
    const d = await add.execute('ada', 'go.example.com');
    dns.publish(d);
    await verify.execute('ada', d.id);
    dns.cnames.clear();
    time += 60_000;
    await recheck.execute();
    await expect(verify.execute('ada', d.id)).rejects.toBeInstanceOf(DomainNotVerifiedError);
    dns.publish(d);
    const again = await verify.execute('ada', d.id);
    expect(stored(again.id)).toMatchObject({ isVerified: true, verificationLostAt: null, verificationLostReason: null });

    // The zone changes hands: the new holder publishes their own challenge.
    const bobs = await add.execute('bob', 'other.example.com');
    const newHolder = await add.execute('carol', 'moved.example.com');
    const old = await add.execute('dave', 'moved.example.com');
    dns.publish(old);
    await verify.execute('dave', old.id);
    dns.publish(newHolder);
    time += 60_000;
    await recheck.execute();
    expect(stored(old.id)?.isVerified).toBe(false);
    await expect(verify.execute('carol', newHolder.id)).resolves.toMatchObject({ isVerified: true });
    expect(stored(bobs.id)?.isVerified).toBe(false);
  });

  it('refuses deleting a domain links use, and deletes it once they are gone', async () => {
    const d = await add.execute('ada', 'go.example.com');
    let links = 2;
    const usage: DomainUsage = { linksUsing: async () => links };
    const del = new DeleteDomainUseCase(repo, usage, new Changes());
    await expect(del.execute('ada', d.id)).rejects.toMatchObject({ errors: [{ name: 'id' }] });
    links = 0;
    await del.execute('ada', d.id);
    expect(repo.rows.size).toBe(0);
    await expect(del.execute('ada', d.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  // A deleted domain's name serves the default short domain's links again: the redirect caches must not keep it as a custom domain.
  it('tells the host caches when a verified domain is deleted, and not for an unverified one', async () => {
    const changes = new Changes();
    const del = new DeleteDomainUseCase(repo, { linksUsing: async () => 0 }, changes);
    const verified = await add.execute('ada', 'go.example.com');
    dns.publish(verified);
    await verify.execute('ada', verified.id);
    const pending = await add.execute('ada', 'pending.example.com');
    await del.execute('ada', pending.id);
    await del.execute('ada', verified.id);
    expect(changes.names).toEqual(['go.example.com']);
  });

  // The same use cases, the service's DNS target with addresses of its own.
  describe('apex domains: A/AAAA records at the service addresses instead of a CNAME', () => {
    const target = { host: 'cname.lnk.test', addresses: ['203.0.113.10', '2001:db8::10'] };

    beforeEach(() => {
      verify = new VerifyDomainUseCase({ domains: repo, dns, clock, listener: changes, config: { target } });
      recheck = new RecheckDomainsUseCase({ domains: repo, dns, clock, listener: changes, config: { target, batchSize: 10 } });
    });
    const apex = async (records: { A?: string[]; AAAA?: string[] }) => {
      const d = await add.execute('ada', 'example.com');
      dns.txts.set(d.challengeName, [d.challenge]);
      dns.addresses.set('example.com', records);
      return d;
    };

    it.each<[string, { A?: string[]; AAAA?: string[] }]>([
      ['an A record', { A: ['203.0.113.10'] }],
      ['an AAAA record', { AAAA: ['2001:db8::10'] }],
      ['both', { A: ['203.0.113.10'], AAAA: ['2001:db8::10'] }],
    ])('verifies a name with its TXT challenge and %s at the service', async (_, records) => {
      const d = await apex(records);
      await expect(verify.execute('ada', d.id)).resolves.toMatchObject({ isVerified: true });
    });

    // A name whose traffic partly goes elsewhere is not the service's to answer, nor to get certificates for.
    it('refuses a name with one address elsewhere, naming only the expected records (no DNS lookup tool through the server)', async () => {
      const d = await apex({ A: ['203.0.113.10', '198.51.100.7'] });
      const error = await verify.execute('ada', d.id).catch((e) => e);
      expect(error).toBeInstanceOf(DomainNotVerifiedError);
      expect(error.message).toBe(
        'DNS has no CNAME record example.com -> cname.lnk.test nor A/AAAA records pointing only at 203.0.113.10, 2001:db8::10',
      );
      expect(error.message).not.toContain('198.51.100.7');
      dns.addresses.set('example.com', { A: ['203.0.113.10'], AAAA: ['2001:db8::99'] });
      await expect(verify.execute('ada', d.id)).rejects.toBeInstanceOf(DomainNotVerifiedError);
    });

    it('refuses the service addresses without the TXT challenge, and a name with no records at all', async () => {
      const d = await apex({ A: ['203.0.113.10'] });
      dns.txts.clear();
      await expect(verify.execute('ada', d.id)).rejects.toThrow(
        "DNS has no TXT record _lnk-challenge.example.com with this domain's challenge",
      );
      dns.addresses.clear();
      await expect(verify.execute('ada', d.id)).rejects.toThrow(
        "DNS has no TXT record _lnk-challenge.example.com with this domain's challenge and no CNAME record " +
          'example.com -> cname.lnk.test nor A/AAAA records pointing only at 203.0.113.10, 2001:db8::10',
      );
    });

    it('does not verify while one address family does not answer (it could point elsewhere)', async () => {
      const d = await apex({ A: ['203.0.113.10'] });
      dns.addressFailure = { type: 'AAAA', kind: 'timeout' };
      await expect(verify.execute('ada', d.id)).rejects.toThrow('The DNS lookup for example.com did not complete; try again shortly');
      dns.addressFailure = null;
      await expect(verify.execute('ada', d.id)).resolves.toMatchObject({ isVerified: true });
    });

    it('asks for addresses only when the CNAME does not route the name, and not at all without configured addresses', async () => {
      const d = await add.execute('ada', 'go.example.com');
      dns.publish(d);
      await verify.execute('ada', d.id);
      expect(dns.asked.filter((q) => /^(A|AAAA) /.test(q))).toEqual([]);

      const cnameOnly = new VerifyDomainUseCase({
        domains: repo,
        dns,
        clock,
        listener: new Changes(),
        config: { target: { host: 'cname.lnk.test', addresses: [] } },
      });
      const e = await apex({ A: ['203.0.113.10'] });
      await expect(cnameOnly.execute('ada', e.id)).rejects.toThrow('DNS has no CNAME record example.com -> cname.lnk.test');
      expect(dns.asked.filter((q) => /^(A|AAAA) /.test(q))).toEqual([]);
    });

    it('takes the verification away when a re-check finds an address moved elsewhere, keeps it through a time-out', async () => {
      const d = await apex({ A: ['203.0.113.10'], AAAA: ['2001:db8::10'] });
      await verify.execute('ada', d.id);
      time += 60_000;
      dns.addressFailure = { type: 'A', kind: 'timeout' };
      expect(await recheck.execute()).toEqual({ checked: 1, lost: 0 });
      dns.addressFailure = null;
      dns.addresses.set('example.com', { A: ['198.51.100.7'], AAAA: ['2001:db8::10'] });
      time += 60_000;
      expect(await recheck.execute()).toEqual({ checked: 1, lost: 1 });
      expect(repo.stored(d.id)).toMatchObject({
        isVerified: false,
        verificationLostReason:
          'DNS has no CNAME record example.com -> cname.lnk.test nor A/AAAA records pointing only at 203.0.113.10, 2001:db8::10',
      });
    });
  });
});
