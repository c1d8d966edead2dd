import {
  Clock,
  IdGenerator,
  NotFoundError,
  PageRequest,
  PreconditionFailedError,
  PasswordHasher,
  QuotaExceededError,
  QuotaPolicy,
} from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { memoryLinksRepositories } from '@lnk/links/testing';
import { LinkDomains } from '../ports/link-domains.port';
import { SlugGenerator } from '../ports/slug-generator.port';
import { CreateLinkUseCase } from './create-link.use-case';
import { GetLinkUseCase } from './get-link.use-case';
import { CreateTagUseCase } from './create-tag.use-case';
import { DeleteTagUseCase } from './delete-tag.use-case';
import { ListTagsUseCase } from './list-tags.use-case';
import { UpdateTagUseCase } from './update-tag.use-case';
import { LinkViews } from '../services/link-views';

let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const created = new Date('2026-02-03T04:05:06.007Z');
let now = created;
const clock: Clock = clockReading(() => now);
const quota: QuotaPolicy = { limitFor: async (_owner, resource) => (resource === 'tags' ? 2 : 10) };
const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const domains: LinkDomains = { verifiedDomainOf: async () => null, namesOf: async () => new Map(), verifiedDomainByName: async () => null };
const slugs: SlugGenerator = { generate: () => `g${ids.next().slice(-6)}` };

function setUp() {
  const { links, tags } = memoryLinksRepositories();
  return {
    tags,
    createTag: new CreateTagUseCase(tags, quota, ids, clock),
    updateTag: new UpdateTagUseCase(tags, clock),
    deleteTag: new DeleteTagUseCase(tags),
    listTags: new ListTagsUseCase(tags),
    createLink: new CreateLinkUseCase({
      links,
      tags,
      domains,
      quota,
      passwords: hasher,
      slugs,
      ids,
      clock,
      config: { ownHosts: ['s.lnk.test'] },
      changes: { linkChanged: () => undefined },
    }),
    getLink: new GetLinkUseCase(links, new LinkViews(tags, domains)),
  };
}

describe('tag use cases', () => {
  beforeEach(() => (now = created));

  // If-Match: a change asked of a version that is no longer current is refused and writes nothing.
  it('refuses a change whose condition the current tag fails with PRECONDITION_FAILED, and changes nothing', async () => {
    const { createTag, updateTag, tags } = setUp();
    const tag = await createTag.execute('ada', { name: 'blue' });
    await expect(updateTag.execute('ada', tag.tag.id, { name: 'navy' }, (current) => current.tag.name === 'red')).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect((await tags.findOfOwner('ada', tag.tag.id))?.tag.name).toBe('blue');
    const changed = await updateTag.execute('ada', tag.tag.id, { name: 'navy' }, (current) => current.tag.name === 'blue');
    expect(changed.tag.name).toBe('navy');
  });

  // The conditional write: a write that came between the read and this one makes this one change nothing.
  it('writes nothing when another write came since the version the condition was checked on', async () => {
    const { createTag, tags } = setUp();
    const { tag } = await createTag.execute('ada', { name: 'blue' });
    const readAt = tag.updatedAt;
    expect(await tags.update(tag, readAt)).toBe(true);
    tag.change({ name: 'late' }, now);
    expect(await tags.update(tag, readAt)).toBe(false);
    expect((await tags.findOfOwner('ada', tag.id))?.tag.name).toBe('blue');
  });

  // The name is how an owner tells tags apart: "News" and "news" would be two tags that look the same.
  it('refuses a name the owner already uses, whatever its case, and lets another owner use it', async () => {
    const { createTag } = setUp();
    await createTag.execute('ada', { name: ' News ' });
    await expect(createTag.execute('ada', { name: 'news' })).rejects.toMatchObject({ errors: [{ name: 'name' }] });
    await expect(createTag.execute('bob', { name: 'news' })).resolves.toMatchObject({ tag: { name: 'news' }, linkCount: 0 });
  });

  it('stops at the quota of the plan', async () => {
    const { createTag } = setUp();
    await createTag.execute('ada', { name: 'one' });
    await createTag.execute('ada', { name: 'two' });
    const refused = await createTag.execute('ada', { name: 'three' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused).toMatchObject({ meta: { limit: { resource: 'tags', used: 2, limit: 2 } } });
  });

  // Read back from the repository: a use case that changed the tag without saving it would pass on the answer alone.
  it('saves a renamed or favourited tag, and refuses a name taken by another of the owner’s tags', async () => {
    const { tags, createTag, updateTag } = setUp();
    const { tag } = await createTag.execute('ada', { name: 'draft' });
    await createTag.execute('ada', { name: 'taken' });
    now = new Date('2026-02-04T00:00:00.000Z');
    await updateTag.execute('ada', tag.id, { name: 'final', isFavorite: true });
    expect((await tags.findOfOwner('ada', tag.id))?.tag.toProps()).toMatchObject({ name: 'final', isFavorite: true, updatedAt: now });
    await expect(updateTag.execute('ada', tag.id, { name: 'TAKEN' })).rejects.toMatchObject({ errors: [{ name: 'name' }] });
    await expect(updateTag.execute('bob', tag.id, { name: 'stolen' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await tags.findOfOwner('ada', tag.id))?.tag.name).toBe('final');
  });

  it('takes a deleted tag off the owner’s links, and refuses another owner’s or an unknown tag', async () => {
    const { createTag, deleteTag, listTags, createLink, getLink } = setUp();
    const { tag: gone } = await createTag.execute('ada', { name: 'gone' });
    const { tag: kept } = await createTag.execute('ada', { name: 'kept' });
    const { link } = await createLink.execute('ada', { url: 'https://example.com/', tags: [gone.id, kept.id] });
    expect((await listTags.execute('ada', 'GONE', PageRequest.of())).items.map((t) => t.linkCount)).toEqual([1]);
    await expect(deleteTag.execute('bob', gone.id)).rejects.toBeInstanceOf(NotFoundError);
    await deleteTag.execute('ada', gone.id);
    expect((await getLink.execute('ada', link.id)).link.tagIds).toEqual([kept.id]);
    await expect(deleteTag.execute('ada', gone.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
