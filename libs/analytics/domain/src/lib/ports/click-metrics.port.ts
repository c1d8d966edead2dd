/** Something that wants to know when counting must drop events (the buffer is full). */
export abstract class ClickMetrics {
  abstract dropped(count: number): void;
  abstract written(count: number): void;
  /** Click events (for webhooks) that could not be held: the buffer held `maxEvents` unwritten. */
  abstract eventsDropped(count: number): void;
}
