import { PatRoom, PersonalAccessToken, PersonalAccessTokenRepository } from '@lnk/identity/domain';
import { ObjectIdGenerator, PageRequest } from '@lnk/shared/kernel';

// One behaviour for the in-memory fake and the TypeORM adapter (see identity.contract.ts). Each test has
// users of its own: the adapter's database is shared by the whole file.

const ids = new ObjectIdGenerator();
const now = new Date('2026-03-04T05:06:07.089Z');
const hoursFromNow = (hours: number) => new Date(now.getTime() + hours * 3_600_000);
const roomy: PatRoom = { maxActive: 1000, keptExpired: 1000 };

function pat(userId: string, expiresAt: Date | null = null): PersonalAccessToken {
  const id = ids.next();
  return new PersonalAccessToken({
    id,
    userId,
    name: `t-${id.slice(-6)}`,
    description: '',
    scopes: ['links:read'],
    tokenHash: id.padEnd(64, '0'),
    lastUsedAt: null,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  });
}

export interface PatRepositoryUnderTest {
  pats: PersonalAccessTokenRepository;
  /** An account the tokens may belong to (the adapter's rows reference users). */
  newUser(): Promise<string>;
}

/** The PersonalAccessTokenRepository port's behaviour; `setup` is called before each test. */
export function describePersonalAccessTokenRepositoryContract(setup: () => PatRepositoryUnderTest): void {
  describe('PersonalAccessTokenRepository contract', () => {
    let pats: PersonalAccessTokenRepository;
    let newUser: () => Promise<string>;
    beforeEach(() => ({ pats, newUser } = setup()));

    const stored = async (token: PersonalAccessToken) => (await pats.findByHash(token.props.tokenHash)) !== null;

    it(
      'stores a token while the user holds fewer active ones than the ' + 'bound, counting neither expired tokens nor other users’',
      async () => {
        const [ada, bob] = [await newUser(), await newUser()];
        const room: PatRoom = { maxActive: 2, keptExpired: 10 };
        expect(await pats.insertWithinLimit(pat(ada, hoursFromNow(-1)), room, now)).toEqual({ stored: true, active: 0 });
        expect(await pats.insertWithinLimit(pat(bob), room, now)).toEqual({ stored: true, active: 0 });
        expect(await pats.insertWithinLimit(pat(ada), room, now)).toEqual({ stored: true, active: 0 });
        expect(await pats.insertWithinLimit(pat(ada, hoursFromNow(1)), room, now)).toEqual({ stored: true, active: 1 });
        const refused = pat(ada);
        expect(await pats.insertWithinLimit(refused, room, now)).toEqual({ stored: false, active: 2 });
        expect(await stored(refused)).toBe(false);
        // An hour later the expiring one no longer counts.
        expect(await pats.insertWithinLimit(refused, room, hoursFromNow(1))).toEqual({ stored: true, active: 1 });
      },
    );

    // Defends against concurrent creations each seeing room for themselves and passing the bound together.
    it('lets exactly the bound through when creations for one user race', async () => {
      const ada = await newUser();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => pats.insertWithinLimit(pat(ada), { maxActive: 3, keptExpired: 10 }, now)),
      );
      expect(results.filter((r) => r.stored)).toHaveLength(3);
      expect((await pats.listOfUser(ada, PageRequest.of(0, 100))).total).toBe(3);
    });

    // Defends against an account piling up short-lived tokens without end (storage, and the count's work).
    it('keeps only the most recently expired tokens beyond the number kept', async () => {
      const ada = await newUser();
      const expired = [-3, -2, -1].map((h) => pat(ada, hoursFromNow(h)));
      for (const token of expired) await pats.insertWithinLimit(token, roomy, now);
      await pats.insertWithinLimit(pat(ada), { maxActive: 10, keptExpired: 2 }, now);
      expect(await Promise.all(expired.map(stored))).toEqual([false, true, true]);
    });

    it('pages a user’s tokens newest first, with the total', async () => {
      const [ada, bob] = [await newUser(), await newUser()];
      const made = [pat(ada), pat(ada), pat(ada), pat(bob)];
      for (const token of made) await pats.insertWithinLimit(token, roomy, now);
      const page = await pats.listOfUser(ada, PageRequest.of(1, 1));
      expect(page.total).toBe(3);
      expect(page.items.map((t) => t.props.id)).toEqual([made[1].props.id]);
    });

    it('deletes every token of a user but the one spared, answering how many, and no one else’s', async () => {
      const [ada, bob] = [await newUser(), await newUser()];
      const [kept, gone, expired, bobs] = [pat(ada), pat(ada), pat(ada, hoursFromNow(-1)), pat(bob)];
      for (const token of [kept, gone, expired, bobs]) await pats.insertWithinLimit(token, roomy, now);
      expect(await pats.deleteAllOfUser(ada, kept.props.id)).toBe(2);
      expect(await Promise.all([kept, gone, expired, bobs].map(stored))).toEqual([true, false, false, true]);
      expect(await pats.deleteAllOfUser(ada)).toBe(1);
      expect(await stored(kept)).toBe(false);
      expect(await pats.deleteOfUser(bob, bobs.props.id)).toBe(true);
      expect(await pats.deleteOfUser(bob, bobs.props.id)).toBe(false);
    });
  });
}
