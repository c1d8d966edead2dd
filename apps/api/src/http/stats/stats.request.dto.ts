import { IsString, Matches, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Omittable } from '../../envelope/validation.pipe';
import { PageQueryDto } from '../paging.request.dto';

/** A calendar date; an ISO date-time is told the expected format (it used to read "longer than 10 characters"). */
const AS_DATE = { message: '$property must be a date as YYYY-MM-DD' };

/** start and limit (spec section 8): given either, the answer is one page; neither, every row of the range. */
export class StatsQueryDto extends PageQueryDto {
  // Both dates are required (the range is at most 366 days, inclusive); the document says so from these rules.
  @JSONSchema({ description: 'First day, as YYYY-MM-DD (UTC).', example: '2026-01-01' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE) startDate!: string;
  @JSONSchema({ description: 'Last day, included, as YYYY-MM-DD (UTC); at most 366 days after startDate.', example: '2026-01-31' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE) endDate!: string;
  @JSONSchema({ description: 'Only rows whose link name, domain or UTM source, medium or campaign contains this text.' })
  @Omittable() @IsString() @MaxLength(200) q?: string;
}
