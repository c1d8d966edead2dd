import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { OkStream } from './envelope';

/**
 * The envelope of a streamed list, written as its batches are read: `{"status":200,"code":"OK",
 * "message":…,"data":[…],"meta":{"total":N}}`, the bytes JSON.stringify gives the same envelope held
 * whole, `total` counting the items sent. One batch is in memory at a time: the next is read only
 * when the socket has taken the last (the stream reads ahead by one chunk at most).
 *
 * The first batch is read before the answer starts: a failure there is still an error envelope (500).
 * A failure after it cannot be: the status and part of the body are sent. The stream then fails, and
 * Fastify destroys the connection, so the client sees a truncated answer (no closing chunk), never
 * a body that parses as a complete, shorter list.
 */
export async function streamedList(list: OkStream): Promise<StreamableFile> {
  const batches = list.batches[Symbol.asyncIterator]();
  const first = await batches.next();
  async function* body(): AsyncGenerator<string> {
    let total = 0;
    let chunk = `{"status":200,"code":"OK","message":${JSON.stringify(list.message)},"data":[`;
    try {
      for (let step = first; !step.done; step = await batches.next()) {
        if (!step.value.length) continue;
        chunk += (total ? ',' : '') + step.value.map((item) => JSON.stringify(item)).join(',');
        total += step.value.length;
        yield chunk;
        chunk = '';
      }
    } finally {
      // The client went away (or a batch failed): the reader is told, so it stops where it is.
      await batches.return?.();
    }
    yield `${chunk}],"meta":${JSON.stringify({ total })}}`;
  }
  return new StreamableFile(Readable.from(body(), { highWaterMark: 1 }), { type: 'application/json; charset=utf-8' });
}
