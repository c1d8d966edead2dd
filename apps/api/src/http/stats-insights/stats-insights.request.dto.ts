import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_STATS_LIMIT, STATS_INTERVALS } from '@lnk/analytics/domain';
import { Omittable } from '../../envelope/validation.pipe';

const AS_DATE = { message: '$property must be a date as YYYY-MM-DD' };

/** The period and filters every statistics view takes (the period as GET /user/stats takes it). */
export class StatsFilterQueryDto {
  @JSONSchema({ description: 'First day, as YYYY-MM-DD (UTC).', example: '2026-01-01' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE) startDate!: string;
  @JSONSchema({ description: 'Last day, included, as YYYY-MM-DD (UTC); at most 366 days after startDate.', example: '2026-01-31' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE) endDate!: string;
  @JSONSchema({ description: 'Only this link of yours (another account\'s link is NOT_FOUND).' })
  @Omittable() @IsString() @MaxLength(64) linkId?: string;
  @JSONSchema({ description: 'Only links on this domain of yours.' })
  @Omittable() @IsString() @MaxLength(64) domainId?: string;
  @JSONSchema({ description: 'Only links with this tag of yours (another account\'s tag is NOT_FOUND).' })
  @Omittable() @IsString() @MaxLength(64) tagId?: string;
}

export class StatsTopQueryDto extends StatsFilterQueryDto {
  @JSONSchema({ description: `How many, most visits first: 1 to ${MAX_STATS_LIMIT}, 10 when absent.` })
  @Omittable() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_STATS_LIMIT) limit?: number;
}

export class StatsTimeSeriesQueryDto extends StatsFilterQueryDto {
  @JSONSchema({ description: 'day, week (from Monday) or month; day when absent.' })
  @Omittable() @IsIn(STATS_INTERVALS) interval?: string;
}
