import { OnApplicationShutdown } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
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

/**
 * The worker's program, plain CommonJS so it runs the same from the built app and under the tests
 * (which compile TypeScript on the fly, for the main thread only). `qrcode` is loaded by the path the
 * main thread resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const qrcode = require(workerData.qrcode);
parentPort.on('message', ({ id, text, size, format }) => {
  const options = { errorCorrectionLevel: 'M', margin: 2, width: size };
  const drawn = format === 'svg' ? qrcode.toString(text, { ...options, type: 'svg' }).then((svg) => Buffer.from(svg)) : qrcode.toBuffer(text, { ...options, type: 'png' });
  drawn.then(
    (body) => parentPort.postMessage({ id, body }),
    (error) => parentPort.postMessage({ id, error: String(error && error.message) }),
  );
});
`;

interface Job {
  id: number;
  image: QrImage;
  resolve: (body: Buffer) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  job: Job | null;
}

export interface WorkerQrRendererOptions {
  /** Worker threads drawing at once. */
  threads: number;
  /** Drawings waiting for a thread; beyond, a request is answered 503 at once. */
  maxQueued: number;
}

export class QrBusyError extends DomainError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'Too many QR codes are being drawn, try again shortly');
  }
}

/**
 * Draws QR codes on a small pool of worker threads, one drawing per thread at a time: a large PNG
 * takes a good part of a second of CPU, which on the main thread would hold up every other request.
 * Threads start on first use and are replaced when one fails; the queue in front of them is bounded.
 */
export class WorkerQrRenderer extends QrRenderer implements OnApplicationShutdown {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerQrRendererOptions = { threads: Math.max(1, Math.min(4, availableParallelism() - 1)), maxQueued: 64 }) {
    super();
  }

  render(image: QrImage): Promise<Buffer> {
    if (this.closed) return Promise.reject(new QrBusyError());
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(new QrBusyError());
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, image, resolve, reject });
      this.dispatch();
    });
  }

  /** Drawings in progress (at most `threads`). */
  get busy(): number {
    return this.threads.filter((t) => t.job).length;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new QrBusyError());
    await Promise.all(this.threads.splice(0).map((t) => t.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const thread = this.threads.find((t) => !t.job) ?? (this.threads.length < this.options.threads ? this.spawn() : null);
      if (!thread) return;
      const job = this.queue.shift() as Job;
      thread.job = job;
      thread.worker.ref();
      thread.worker.postMessage({ id: job.id, ...job.image });
    }
  }

  private spawn(): Thread {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { qrcode: require.resolve('qrcode') } });
    const thread: Thread = { worker, job: null };
    worker.unref();
    worker.on('message', (message: { id: number; body?: Uint8Array; error?: string }) => {
      const job = thread.job;
      if (!job || job.id !== message.id) return;
      thread.job = null;
      worker.unref();
      if (message.body) job.resolve(Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength));
      else job.reject(new Error(`QR code drawing failed: ${message.error}`));
      this.dispatch();
    });
    const fail = (error: Error) => {
      const index = this.threads.indexOf(thread);
      if (index < 0) return;
      this.threads.splice(index, 1);
      thread.job?.reject(error);
      thread.job = null;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`QR code worker exited (${code})`)));
    this.threads.push(thread);
    return thread;
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
  private readonly cache = new Map<string, Buffer>();
  private readonly drawing = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    private readonly inner: QrRenderer,
    private readonly options: CachedQrRendererOptions = { maxEntries: 1000, maxBytes: 32 * 1024 * 1024 },
  ) {
    super();
  }

  render(image: QrImage): Promise<Buffer> {
    const key = `${image.format}\u0000${image.size}\u0000${image.text}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    let pending = this.drawing.get(key);
    if (!pending) {
      pending = this.inner.render(image).then(
        (body) => {
          this.drawing.delete(key);
          this.keep(key, body);
          return body;
        },
        (error: unknown) => {
          this.drawing.delete(key);
          throw error;
        },
      );
      this.drawing.set(key, pending);
    }
    return pending;
  }

  async onApplicationShutdown(): Promise<void> {
    await (this.inner as Partial<OnApplicationShutdown>).onApplicationShutdown?.();
  }

  private keep(key: string, body: Buffer): void {
    if (body.length > this.options.maxBytes) return;
    this.cache.set(key, body);
    this.bytes += body.length;
    for (const [oldKey, old] of this.cache) {
      if (this.cache.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.cache.delete(oldKey);
      this.bytes -= old.length;
    }
  }
}
