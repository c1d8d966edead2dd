import { ClickRecorder, LinkClicked } from '@lnk/links/domain';
import { ClickBuffer } from '@lnk/analytics/domain';

/**
 * A short URL's clicks go to analytics' buffer (written in batches; recording never waits). Links' event is
 * handed on as it is: the compiler checks here that it is what analytics reads (its ClickToCount), and the
 * redirect's hot path copies nothing.
 */
export class ClickRecorderViaAnalytics extends ClickRecorder {
  constructor(private readonly buffer: ClickBuffer) {
    super();
  }

  record(click: LinkClicked): void {
    this.buffer.record(click);
  }
}
