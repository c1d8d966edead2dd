import { Clock, IdGenerator, NotFoundError, Page, PageRequest, pageOf, QuotaExceededError, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { Domain, DomainNotVerifiedError } from './model/domain.entity';
import { dnsRecordFor, normalizeDomainName } from './model/domain-name';
import { DnsAnswer, DnsResolver, DomainRepository, DomainUsage } from './ports/domain.ports';
import { AddDomainUseCase, DeleteDomainUseCase, VerifyDomainUseCase } from './use-cases/domains.use-cases';

class MemoryDomains extends DomainRepository {
  readonly rows: Domain[] = [];
  async insertWithinQuota(domain: Domain, limit: number) {
    const used = this.rows.filter((d) => d.ownerId === domain.ownerId).length;
    if (used >= limit) throw new QuotaExceededError('domains', used, limit);
    this.rows.push(domain);
  }
  async findOfOwner(ownerId: string, id: string) {
    return this.rows.find((d) => d.ownerId === ownerId && d.id === id) ?? null;
  }
  async findVerifiedOfOwner(ownerId: string, id: string) {
    return this.rows.find((d) => d.ownerId === ownerId && d.id === id && d.isVerified) ?? null;
  }
  async findVerifiedByName(name: string) {
    return this.rows.find((d) => d.name === name && d.isVerified) ?? null;
  }
  async listOfOwner(ownerId: string, _q: string | undefined, page: PageRequest): Promise<Page<Domain>> {
    const mine = this.rows.filter((d) => d.ownerId === ownerId);
    return pageOf(mine.slice(page.start, page.start + page.limit), mine.length, page);
  }
  async hasOfOwner(ownerId: string, name: string) {
    return this.rows.some((d) => d.ownerId === ownerId && d.name === name);
  }
  async isVerifiedByAnother(name: string, ownerId: string) {
    return this.rows.some((d) => d.name === name && d.isVerified && d.ownerId !== ownerId);
  }
  async markVerified(): Promise<void> {
    // The in-memory domain object is already the stored one.
  }
  async deleteOfOwner(ownerId: string, id: string) {
    const i = this.rows.findIndex((d) => d.ownerId === ownerId && d.id === id);
    if (i < 0) return false;
    this.rows.splice(i, 1);
    return true;
  }
  async countOfOwner(ownerId: string) {
    return this.rows.filter((d) => d.ownerId === ownerId).length;
  }
  async deleteAllOfOwner(ownerId: string): Promise<void> {
    this.rows.splice(0, this.rows.length, ...this.rows.filter((d) => d.ownerId !== ownerId));
  }
}

class Answers extends DnsResolver {
  answer: DnsAnswer = { kind: 'none' };
  async cnameOf() {
    return this.answer;
  }
}

let n = 0;
const ids: IdGenerator = { next: () => (n++).toString(16).padStart(24, '0') };
const clock: Clock = { now: () => new Date('2026-02-03T04:05:06.007Z') };
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

  it.each(['', '   ', 'localhost', '127.0.0.1', '10.0.0.1', '[::1]', 'example.com:80', 'http://example.com', 'example.com/x', 'user@example.com', '*.example.com', '-a.example.com', 'a-.example.com', 'a..example.com', `${'a'.repeat(64)}.example.com`, 'example.123', 's.lnk.test', 'x.s.lnk.test', 'cname.lnk.test', 'exa mple.com'])(
    'refuses %p on name',
    (input) => {
      expect(() => normalizeDomainName(input, own)).toThrow(ValidationError);
      try {
        normalizeDomainName(input, own);
      } catch (error) {
        expect((error as ValidationError).errors[0].name).toBe('name');
      }
    },
  );

  it('tells the owner which record to create', () => {
    expect(dnsRecordFor('cname.lnk.test')).toBe('CNAME cname.lnk.test');
  });
});

describe('domain use cases', () => {
  let repo: MemoryDomains;
  let dns: Answers;
  let add: AddDomainUseCase;
  let verify: VerifyDomainUseCase;

  beforeEach(() => {
    repo = new MemoryDomains();
    dns = new Answers();
    add = new AddDomainUseCase(repo, quota, ids, clock, { ownHosts: own });
    verify = new VerifyDomainUseCase(repo, dns, clock, { target: 'cname.lnk.test' });
  });

  it('adds unverified, refuses the same name twice and a name another account verified, and stops at the quota', async () => {
    const d = await add.execute('ada', 'go.example.com');
    expect(d).toMatchObject({ name: 'go.example.com', isVerified: false, verifiedAt: null });
    await expect(add.execute('ada', 'GO.example.com')).rejects.toMatchObject({ errors: [{ name: 'name' }] });
    dns.answer = { kind: 'cname', targets: ['cname.lnk.test'] };
    await verify.execute('ada', d.id);
    await expect(add.execute('bob', 'go.example.com')).rejects.toMatchObject({ errors: [{ name: 'name', error: expect.stringContaining('another account') }] });
    await add.execute('ada', 'two.example.com');
    await expect(add.execute('ada', 'three.example.com')).rejects.toBeInstanceOf(QuotaExceededError);
  });

  it.each<[DnsAnswer, RegExp]>([
    [{ kind: 'none' }, /no CNAME record for go\.example\.com/],
    [{ kind: 'cname', targets: ['other.test.'] }, /CNAME to other\.test, expected cname\.lnk\.test/],
    [{ kind: 'timeout' }, /timed out/],
    [{ kind: 'error', message: 'ESERVFAIL' }, /failed: ESERVFAIL/],
  ])('refuses verification when DNS answers %j, saying what it answered', async (answer, message) => {
    const d = await add.execute('ada', 'go.example.com');
    dns.answer = answer;
    const error = await verify.execute('ada', d.id).catch((e) => e);
    expect(error).toBeInstanceOf(DomainNotVerifiedError);
    expect(error.message).toMatch(message);
    expect(d.isVerified).toBe(false);
  });

  it('verifies on a CNAME to the target whatever its case and trailing dot, once', async () => {
    const d = await add.execute('ada', 'go.example.com');
    dns.answer = { kind: 'cname', targets: ['CNAME.LNK.TEST.'] };
    const verified = await verify.execute('ada', d.id);
    expect(verified).toMatchObject({ isVerified: true, verifiedAt: clock.now() });
    dns.answer = { kind: 'none' };
    await expect(verify.execute('ada', d.id)).resolves.toBe(verified);
    await expect(verify.execute('bob', d.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses deleting a domain links use, and deletes it once they are gone', async () => {
    const d = await add.execute('ada', 'go.example.com');
    let links = 2;
    const usage: DomainUsage = { linksUsing: async () => links };
    const del = new DeleteDomainUseCase(repo, usage);
    await expect(del.execute('ada', d.id)).rejects.toMatchObject({ errors: [{ name: 'id' }] });
    links = 0;
    await del.execute('ada', d.id);
    expect(repo.rows).toHaveLength(0);
    await expect(del.execute('ada', d.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
