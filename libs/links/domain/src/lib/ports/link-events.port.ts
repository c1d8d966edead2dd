import { UnitOfWork } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';

export type LinkEventType = 'link.created' | 'link.updated' | 'link.deleted';

/**
 * Told of each change of a link inside the change's unit of work, so what it records (the webhooks'
 * outbox) commits or rolls back with the change: an event is never lost, nor told of a change that
 * did not happen.
 */
export abstract class LinkEvents {
  abstract record(type: LinkEventType, link: Link, at: Date): Promise<void>;
}

/** A sink and the unit of work the change and its event share. Without one, a change runs as before, with no transaction of its own. */
export interface LinkEventSink {
  events: LinkEvents;
  unitOfWork: UnitOfWork;
}

/** Runs the change and records its event in one unit of work; runs the change alone without a sink. */
export function withLinkEvent<T>(sink: LinkEventSink | null, change: (record: (type: LinkEventType, link: Link, at: Date) => Promise<void>) => Promise<T>): Promise<T> {
  if (!sink) return change(async () => undefined);
  return sink.unitOfWork.run(() => change((type, link, at) => sink.events.record(type, link, at)));
}
