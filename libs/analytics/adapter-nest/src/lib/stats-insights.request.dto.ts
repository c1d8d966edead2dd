import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_STATS_LIMIT, STATS_INTERVALS } from '@lnk/analytics/domain';
import { Omittable } from '@lnk/shared/http';
import { EndDate, StartDate } from './stats.request.dto';

/** The period and filters every statistics view takes (the period as GET /user/stats takes it). */
export class StatsFilterQueryDto {
  @StartDate() startDate!: string;
  @EndDate() endDate!: string;
  @JSONSchema({ description: "Only this link of yours (another account's link is NOT_FOUND)." })
  @Omittable()
  @IsString()
  @MaxLength(64)
  linkId?: string;
  @JSONSchema({ description: 'Only links on this domain of yours.' })
  @Omittable()
  @IsString()
  @MaxLength(64)
  domainId?: string;
  @JSONSchema({ description: "Only links with this tag of yours (another account's tag is NOT_FOUND)." })
  @Omittable()
  @IsString()
  @MaxLength(64)
  tagId?: string;
}

export class StatsTopQueryDto extends StatsFilterQueryDto {
  @JSONSchema({ description: `How many, most visits first: 1 to ${MAX_STATS_LIMIT}, 10 when absent.` })
  @Omittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_STATS_LIMIT)
  limit?: number;
}

export class StatsTimeSeriesQueryDto extends StatsFilterQueryDto {
  @JSONSchema({ description: 'day, week (from Monday) or month; day when absent.' })
  @Omittable()
  @IsIn(STATS_INTERVALS)
  interval?: string;
}
