import { OnApplicationShutdown } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { LookupCache } from '@lnk/shared/cache';
import { DomainError } from '@lnk/shared/kernel';

export interface QrImage {
  text: string;
  /** Width in pixels (PNG), or of the SVG's viewport. */
  size: number;
  format: 'png' | 'svg';
}

/** Draws QR codes. */
export abstract class QrRenderer {
  abstract render(image: QrImage): Promise<Buffer>;
}

export interface PiscinaQrRendererOptions {
  /** Worker threads drawing at once (started on first use, each leaving after a minute idle). */
  maxThreads: number;
  /** Drawings waiting for a thread; beyond, a request is answered 503 at once. */
  maxQueue: number;
}

export const DEFAULT_QR_POOL: PiscinaQrRendererOptions = { maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)), maxQueue: 64 };

export class QrBusyError extends DomainError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'Too many QR codes are being drawn, try again shortly');
  }
}

/**
 * Draws QR codes on a piscina pool of worker threads, one drawing per thread at a time: a large PNG
 * takes a good part of a second of CPU, which on the main thread would hold up every other request.
 * Piscina replaces a thread that fails; its queue is bounded.
 */
export class PiscinaQrRenderer extends QrRenderer implements OnApplicationShutdown {
  // The worker answers a Buffer, which arrives here as a plain Uint8Array.
  private readonly pool: Piscina<QrImage, Uint8Array>;
  private closed = false;

  constructor(private readonly options: PiscinaQrRendererOptions = DEFAULT_QR_POOL) {
    super();
    if (!(options.maxQueue >= 1)) throw new RangeError('maxQueue must be at least 1');
    this.pool = new Piscina({
      filename: join(__dirname, 'qr-draw.worker.js'),
      minThreads: 0,
      maxThreads: options.maxThreads,
      maxQueue: options.maxQueue,
      idleTimeout: 60_000,
      recordTiming: false,
    });
  }

  render(image: QrImage): Promise<Buffer> {
    // The same bound piscina applies (its queue less the threads still starting), checked first so a
    // full queue is our 503 rather than the pool's own error.
    if (this.closed || this.pool.queueSize >= this.options.maxQueue) return Promise.reject(new QrBusyError());
    return this.pool.run({ text: image.text, size: image.size, format: image.format }).then(
      (drawn) => Buffer.from(drawn.buffer, drawn.byteOffset, drawn.byteLength),
      (error: unknown) => {
        throw this.closed
          ? new QrBusyError()
          : new Error(`QR code drawing failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  /** Threads started (at most `maxThreads`). */
  get threads(): number {
    return this.pool.threads.length;
  }

  /** Drawings waiting for a thread. */
  get queued(): number {
    return this.pool.queueSize;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    // Waiting drawings are refused (503), running ones end with their threads.
    await this.pool.destroy();
  }
}

export interface CachedQrRendererOptions {
  maxEntries: number;
  maxBytes: number;
}

/**
 * Keeps drawn QR codes, most recently used first, within a count and a byte budget; requests for an
 * image being drawn wait for that one drawing. Keyed on the encoded text (the short URL, which changes
 * with the slug or domain), size and format, so a stale image is never served.
 */
export class CachedQrRenderer extends QrRenderer implements OnApplicationShutdown {
  private readonly drawn: LookupCache<string, Buffer>;

  constructor(
    private readonly inner: QrRenderer,
    options: CachedQrRendererOptions = { maxEntries: 1000, maxBytes: 32 * 1024 * 1024 },
  ) {
    super();
    this.drawn = new LookupCache({
      found: { maxEntries: options.maxEntries, maxWeight: options.maxBytes, weigh: (body: Buffer) => body.length },
    });
  }

  render(image: QrImage): Promise<Buffer> {
    const key = `${image.format}\u0000${image.size}\u0000${image.text}`;
    // A drawing never answers "nothing": what the cache gives is the image drawn.
    return Promise.resolve(this.drawn.get(key, () => this.inner.render(image))) as Promise<Buffer>;
  }

  async onApplicationShutdown(): Promise<void> {
    await (this.inner as Partial<OnApplicationShutdown>).onApplicationShutdown?.();
  }
}
