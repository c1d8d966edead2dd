import { ValidationError } from '@lnk/shared/kernel';
import { LinkListQueryDto } from '@lnk/links/adapter-nest';
import { SearchPageQueryDto } from '@lnk/shared/http';
import { ApiValidationPipe } from './validation.pipe';

const asQuery = (metatype: object) => ({ type: 'query' as const, metatype: metatype as never, data: undefined });

describe('ApiValidationPipe: a query checked once per query string', () => {
  const pipe = new ApiValidationPipe();

  // Defends: one caller's changes to its DTO showing in the next caller's (a shared instance).
  it('answers the same query string with equal DTOs, each the caller’s own', async () => {
    const first = (await pipe.transform({ limit: '20', q: 'launch' }, asQuery(LinkListQueryDto))) as LinkListQueryDto;
    const second = (await pipe.transform({ limit: '20', q: 'launch' }, asQuery(LinkListQueryDto))) as LinkListQueryDto;
    expect(second).toBeInstanceOf(LinkListQueryDto);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second.toPageRequest()).toEqual(first.toPageRequest());
    expect(second.limit).toBe(20);
    first.limit = 5;
    const third = (await pipe.transform({ limit: '20', q: 'launch' }, asQuery(LinkListQueryDto))) as LinkListQueryDto;
    expect(third.limit).toBe(20);
  });

  // Defends: a refused query let through the second time, and a query one DTO accepts accepted by another.
  it('refuses a bad query every time, and keeps each DTO’s answers apart', async () => {
    for (let i = 0; i < 2; i++)
      await expect(pipe.transform({ limit: '0' }, asQuery(LinkListQueryDto))).rejects.toBeInstanceOf(ValidationError);
    await expect(pipe.transform({ expired: 'true' }, asQuery(LinkListQueryDto))).resolves.toMatchObject({ expired: 'true' });
    for (let i = 0; i < 2; i++)
      await expect(pipe.transform({ expired: 'true' }, asQuery(SearchPageQueryDto))).rejects.toBeInstanceOf(ValidationError);
  });

  it('checks queries at their longest, and a flood of distinct ones, as before', async () => {
    const long = 'x'.repeat(190);
    for (let i = 0; i < 2; i++) {
      await expect(pipe.transform({ q: long, start: '3', limit: '7', expired: 'false' }, asQuery(LinkListQueryDto))).resolves.toMatchObject(
        { q: long, start: 3, limit: 7 },
      );
      await expect(pipe.transform({ q: 'y'.repeat(201) }, asQuery(LinkListQueryDto))).rejects.toBeInstanceOf(ValidationError);
    }
    for (let start = 0; start < 600; start++) {
      await expect(pipe.transform({ start: String(start) }, asQuery(LinkListQueryDto))).resolves.toMatchObject({ start });
    }
    await expect(pipe.transform({ start: '0' }, asQuery(LinkListQueryDto))).resolves.toMatchObject({ start: 0 });
  });
});
