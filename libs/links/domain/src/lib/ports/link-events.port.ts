import { UnitOfWork } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';

export type LinkEventType = 'link.created' | 'link.updated' | 'link.deleted';

/**
 * Told of each change of a link inside the change's unit of work, so what it records (the webhooks'
 * outbox) commits or rolls back with the change: an event is never lost, nor told of a change that
 * did not happen.
 */
export abstract class LinkEvents {
  /**
   * Whether an event of this type about this owner's links is wanted at all (a memory lookup). False: the
   * change runs exactly as without a sink, with no transaction and no recording. When unsure, true.
   */
  abstract wants(type: LinkEventType, ownerId: string): boolean;
  abstract record(type: LinkEventType, link: Link, at: Date): Promise<void>;
  /** One event per link, all of one owner's, in one write. */
  abstract recordAll(type: LinkEventType, links: Link[], at: Date): Promise<void>;
}

/** A sink and the unit of work the change and its event share. Without one, a change runs as before, with no transaction of its own. */
export interface LinkEventSink {
  events: LinkEvents;
  unitOfWork: UnitOfWork;
}

/**
 * Runs the change and records its event in one unit of work when the owner wants such events; else (or
 * without a sink) runs the change alone, as before: the statements of a change nobody listens to are
 * just its own.
 */
export function withLinkEvent<T>(
  sink: LinkEventSink | null,
  type: LinkEventType,
  ownerId: string,
  change: (record: (link: Link, at: Date) => Promise<void>) => Promise<T>,
): Promise<T> {
  if (!sink || !sink.events.wants(type, ownerId)) return change(async () => undefined);
  return sink.unitOfWork.run(() => change((link, at) => sink.events.record(type, link, at)));
}

/**
 * The events of a change made to many links of one owner at once (bulk creation, import, bulk delete and
 * retag), recorded in the caller's unit of work, which already holds the change: only when wanted.
 */
export async function recordLinkEvents(
  sink: LinkEventSink | null,
  type: LinkEventType,
  ownerId: string,
  links: Link[],
  at: Date,
): Promise<void> {
  if (!sink || !links.length || !sink.events.wants(type, ownerId)) return;
  await sink.events.recordAll(type, links, at);
}
