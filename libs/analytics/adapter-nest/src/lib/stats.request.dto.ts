import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { checkCalendarDate } from '@lnk/analytics/domain';
import { Checked, Omittable, PageQueryDto } from '@lnk/shared/http';

/**
 * A calendar date; an ISO date-time is told the expected format (it used to read "longer than 10
 * characters"), and a day that does not exist (2026-02-30) is refused by the analytics domain's rule.
 */
const AS_DATE = { message: '$property must be a date as YYYY-MM-DD' };
const calendarDate = (description: string, example: string): PropertyDecorator =>
  applyDecorators(
    Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE),
    IsString(),
    Checked(checkCalendarDate, { format: 'date' }),
    JSONSchema({ description, example }),
  );

/**
 * The period every statistics view takes, both dates required (the range is at most 366 days, inclusive): GET /user/stats and the insights.
 */
export const StartDate = (): PropertyDecorator => calendarDate('First day, as YYYY-MM-DD (UTC).', '2026-01-01');
export const EndDate = (): PropertyDecorator =>
  calendarDate('Last day, included, as YYYY-MM-DD (UTC); at most 366 days after startDate.', '2026-01-31');

/** start and limit (spec section 8): given either, the answer is one page; neither, every row of the range. */
export class StatsQueryDto extends PageQueryDto {
  @StartDate() startDate!: string;
  @EndDate() endDate!: string;
  @JSONSchema({ description: 'Only rows whose link name, domain or UTM source, medium or campaign contains this text.' })
  @Omittable()
  @IsString()
  @MaxLength(200)
  q?: string;
}
