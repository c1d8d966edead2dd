import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageRequest } from '@lnk/shared/kernel';

/** `start` and `limit` of every list endpoint (spec section 8). */
export class PageQueryDto {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) start?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(PageRequest.MAX_LIMIT) limit?: number;

  toPageRequest(): PageRequest {
    return PageRequest.of(this.start ?? 0, this.limit ?? PageRequest.DEFAULT_LIMIT);
  }
}

export class SearchPageQueryDto extends PageQueryDto {
  @IsOptional() @IsString() @MaxLength(200) q?: string;
}
