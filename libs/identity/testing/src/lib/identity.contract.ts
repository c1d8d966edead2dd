import { EmailVerificationRepository, User, UserProps, UserRepository } from '@lnk/identity/domain';
import { ObjectIdGenerator, ValidationError } from '@lnk/shared/kernel';

// One behaviour for the in-memory fake and the TypeORM adapter (see links.contract.ts). Addresses carry
// a fresh id: the adapter's database is shared by the whole file.

const ids = new ObjectIdGenerator();
const now = new Date('2026-03-04T05:06:07.089Z');
const later = new Date('2026-03-05T00:00:00.001Z');
const freshEmail = (label = 'ada') => `${label}.${ids.next().slice(-12)}@example.com`;

function user(over: Partial<UserProps> = {}): User {
  return new User({
    id: ids.next(),
    email: freshEmail(),
    name: 'Ada',
    passwordHash: '$2b$04$hash',
    isVerified: false,
    isActive: true,
    twoFactorSecret: null,
    emailChangedAt: null,
    createdAt: now,
    updatedAt: now,
    ...over,
  });
}

const fieldOf = (error: unknown) => (error instanceof ValidationError ? error.errors[0]?.name : undefined);

/** The UserRepository port's behaviour; `makeRepo` is called before each test. */
export function describeUserRepositoryContract(makeRepo: () => UserRepository): void {
  describe('UserRepository contract', () => {
    let users: UserRepository;
    beforeEach(() => (users = makeRepo()));

    it('reads back what it stored, by id and by e-mail, dates to the millisecond', async () => {
      const ada = user({ twoFactorSecret: 'sealed', emailChangedAt: later });
      await users.insert(ada);
      expect((await users.findById(ada.id))?.toProps()).toEqual(ada.toProps());
      expect((await users.findByEmail(ada.email))?.id).toBe(ada.id);
      expect(await users.findByEmail(freshEmail('nobody'))).toBeNull();
      expect(await users.findById(ids.next())).toBeNull();
    });

    // With a by-reference fake, a use case that changed a user and forgot to save it still passed.
    it('keeps its own copy: a user changed after reading is stored only by update', async () => {
      const ada = user({ name: 'before' });
      await users.insert(ada);
      const read = (await users.findById(ada.id)) as User;
      const changed = new User({ ...read.toProps(), name: 'after', isVerified: true, updatedAt: later });
      expect((await users.findById(ada.id))?.name).toBe('before');
      await users.update(changed);
      expect((await users.findById(ada.id))?.toProps()).toEqual(changed.toProps());
    });

    it('refuses a taken e-mail with a validation error on email, on insert and on update', async () => {
      const ada = user();
      await users.insert(ada);
      expect(fieldOf(await users.insert(user({ email: ada.email })).catch((e: unknown) => e))).toBe('email');
      const bob = user();
      await users.insert(bob);
      expect(fieldOf(await users.update(new User({ ...bob.toProps(), email: ada.email })).catch((e: unknown) => e))).toBe('email');
      expect((await users.findById(bob.id))?.email).toBe(bob.email);
    });

    it('deletes a user once', async () => {
      const ada = user();
      await users.insert(ada);
      expect(await users.delete(ada.id)).toBe(true);
      expect(await users.delete(ada.id)).toBe(false);
      expect(await users.findById(ada.id)).toBeNull();
      expect(await users.findByEmail(ada.email)).toBeNull();
    });
  });
}

/**
 * The EmailVerificationRepository port's behaviour; `make` is called before each test (`users` holds
 * the accounts the links belong to, as the adapter's foreign key needs).
 */
export function describeEmailVerificationRepositoryContract(
  make: () => { verifications: EmailVerificationRepository; users: UserRepository },
): void {
  describe('EmailVerificationRepository contract', () => {
    let verifications: EmailVerificationRepository;
    let users: UserRepository;
    beforeEach(() => ({ verifications, users } = make()));

    const link = async (owner: User, label: string, expiresAt = later) => {
      const tokenHash = `${label}${ids.next()}`.padEnd(64, '0');
      await verifications.insert({ id: ids.next(), userId: owner.id, email: owner.email, tokenHash, expiresAt, createdAt: now });
      return tokenHash;
    };

    // Opening a link (its page) must leave it usable; only the confirmation uses it.
    it('finds a usable link without using it, then uses it once', async () => {
      const ada = user();
      await users.insert(ada);
      const hash = await link(ada, 'a');
      expect(await verifications.find(hash, now)).toEqual({ userId: ada.id, email: ada.email });
      expect(await verifications.find(hash, now)).toEqual({ userId: ada.id, email: ada.email });
      expect(await verifications.consume(hash, now)).toEqual({ userId: ada.id, email: ada.email });
      expect(await verifications.consume(hash, now)).toBeNull();
      expect(await verifications.find(hash, now)).toBeNull();
      expect(await verifications.find('f'.repeat(64), now)).toBeNull();
    });

    it('neither finds nor uses an expired link', async () => {
      const ada = user();
      await users.insert(ada);
      const hash = await link(ada, 'b', now);
      expect(await verifications.find(hash, now)).toBeNull();
      expect(await verifications.consume(hash, now)).toBeNull();
    });

    it("withdraws every unused link of one account, and no other account's", async () => {
      const ada = user();
      const bob = user();
      await users.insert(ada);
      await users.insert(bob);
      const [first, second, bobs] = [await link(ada, 'c'), await link(ada, 'd'), await link(bob, 'e')];
      await verifications.withdrawAll(ada.id, now);
      expect(await verifications.find(first, now)).toBeNull();
      expect(await verifications.consume(second, now)).toBeNull();
      expect(await verifications.find(bobs, now)).toEqual({ userId: bob.id, email: bob.email });
    });
  });
}
