import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Omittable } from './request-dto.decorators';
import { PageRequest } from '@lnk/shared/kernel';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_CURSOR_LENGTH } from '../paging/cursors';

/** `start` and `limit` of every list endpoint (spec section 8). */
export class PageQueryDto {
  @Omittable() @Type(() => Number) @IsInt() @Min(0) @Max(PageRequest.MAX_START) start?: number;
  @Omittable() @Type(() => Number) @IsInt() @Min(1) @Max(PageRequest.MAX_LIMIT) limit?: number;
  @JSONSchema({ description: 'The meta.nextCursor of the page before: the page after it (opaque; not with start).' })
  @Omittable()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;

  toPageRequest(): PageRequest {
    return PageRequest.of(this.start ?? 0, this.limit ?? PageRequest.DEFAULT_LIMIT);
  }
}

export class SearchPageQueryDto extends PageQueryDto {
  @Omittable() @IsString() @MaxLength(200) q?: string;
}
