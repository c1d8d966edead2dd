import type { StatsRecord } from '@lnk/analytics/domain';
import type { Static } from '@lnk/shared/http';
import type { StatsRecordSchema } from './stats.schemas';

/** One day's row of a link (spec 4.8); the day as midnight UTC. */
export function presentStatsRecord(r: StatsRecord): Static<typeof StatsRecordSchema> {
  return {
    id: r.id,
    date: `${r.date}T00:00:00.000Z`,
    userId: r.ownerId,
    linkId: r.linkId,
    linkName: r.linkName,
    domainId: r.domainId,
    domainName: r.domainName,
    utmSource: r.utmSource,
    utmMedium: r.utmMedium,
    utmCampaign: r.utmCampaign,
    visits: r.visits,
    passwordPassed: r.passwordPassed,
    passwordFailed: r.passwordFailed,
  };
}

/** The batches of a whole range, each presented as it is read. */
export async function* presentStatsBatches(batches: AsyncIterable<StatsRecord[]>): AsyncIterable<Static<typeof StatsRecordSchema>[]> {
  for await (const batch of batches) yield batch.map(presentStatsRecord);
}
