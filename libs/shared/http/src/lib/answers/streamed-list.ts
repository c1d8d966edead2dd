import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { OkStream } from './envelope';

/**
 * A streamed list's answer, as the handler returns it (Nest's Fastify adapter pipes a StreamableFile as
 * it is). `T`, the items' type, lets the route's declared schema check what the handler streams
 * (responds.decorator.ts).
 */
export class StreamedList<T> extends StreamableFile {
  declare private readonly items?: T[];
}

/**
 * Chunks of about 32 KB: below V8's large-object size (128 KB), a chunk is born young and dies young; a
 * larger string is born in the old generation and waits there for a full collection.
 */
const CHUNK_CHARS = 32 * 1024;

/**
 * The envelope of a streamed list, written as its batches are read: `{"status":200,"code":"OK",
 * "message":…,"data":[…],"meta":{"total":N}}`, the bytes JSON.stringify gives the same envelope held
 * whole, `total` counting the items sent. A batch is read when the socket has taken the one before
 * (the stream reads ahead by one chunk at most): one batch is held at a time, whatever the list.
 *
 * The first batch is read before the answer starts: a failure there is still an error envelope (500).
 * A failure after it cannot be: the status and part of the body are sent. The stream then fails, and
 * Fastify destroys the connection, so the client sees a truncated answer (no closing chunk), never
 * a body that parses as a complete, shorter list.
 */
export async function streamedList<T>(list: OkStream<T>): Promise<StreamedList<T>> {
  const batches = list.batches[Symbol.asyncIterator]();
  const first = await batches.next();
  async function* body(): AsyncGenerator<string> {
    let total = 0;
    let parts = [`{"status":200,"code":"OK","message":${JSON.stringify(list.message)},"data":[`];
    let size = parts[0].length;
    try {
      for (let step = first; !step.done; step = await batches.next()) {
        for (const item of step.value) {
          const json = (total++ ? ',' : '') + JSON.stringify(item);
          parts.push(json);
          size += json.length;
          if (size >= CHUNK_CHARS) {
            yield parts.join('');
            parts = [];
            size = 0;
          }
        }
      }
    } finally {
      // The client went away (or a batch failed): the reader is told, so it stops where it is.
      await batches.return?.();
    }
    parts.push(`],"meta":${JSON.stringify({ total })}}`);
    yield parts.join('');
  }
  return new StreamedList<T>(Readable.from(body(), { highWaterMark: 1 }), { type: 'application/json; charset=utf-8' });
}
