import { CachedQrRenderer, PiscinaQrRenderer, QrBusyError, QrImage, QrRenderer } from './qr-renderer';

class CountingRenderer extends QrRenderer {
  calls: QrImage[] = [];
  private releases: (() => void)[] = [];
  held = false;
  async render(image: QrImage): Promise<Buffer> {
    this.calls.push({ ...image });
    if (this.held) await new Promise<void>((resolve) => this.releases.push(resolve));
    return Buffer.from(`${image.format}:${image.size}:${image.text}:${this.calls.length}`);
  }
  release() {
    this.releases.splice(0).forEach((release) => release());
  }
}

describe('CachedQrRenderer', () => {
  const image = (over: Partial<QrImage> = {}): QrImage => ({ text: 'https://s.example/a', size: 300, format: 'png', ...over });

  // Drawing a large QR code is costly: a repeated request must not draw it again.
  it('draws each (short URL, size, format) once and answers repeats with the same bytes', async () => {
    const inner = new CountingRenderer();
    const cached = new CachedQrRenderer(inner);
    const first = await cached.render(image());
    expect(await cached.render(image())).toBe(first);
    await cached.render(image({ size: 301 }));
    await cached.render(image({ format: 'svg' }));
    // A changed slug or domain changes the short URL, so a stale image is never served.
    await cached.render(image({ text: 'https://s.example/b' }));
    expect(inner.calls).toHaveLength(4);
  });

  it('lets concurrent requests for one image wait for a single drawing', async () => {
    const inner = new CountingRenderer();
    inner.held = true;
    const cached = new CachedQrRenderer(inner);
    const answers = Promise.all([cached.render(image()), cached.render(image()), cached.render(image())]);
    await new Promise((resolve) => setImmediate(resolve));
    inner.release();
    const [a, b, c] = await answers;
    expect(inner.calls).toHaveLength(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('forgets the least recently used images beyond its count and byte budgets', async () => {
    const inner = new CountingRenderer();
    const cached = new CachedQrRenderer(inner, { maxEntries: 2, maxBytes: 1_000_000 });
    await cached.render(image({ size: 1 }));
    await cached.render(image({ size: 2 }));
    await cached.render(image({ size: 1 })); // used again: now the most recent
    await cached.render(image({ size: 3 })); // pushes out size 2
    await cached.render(image({ size: 1 }));
    expect(inner.calls.map((c) => c.size)).toEqual([1, 2, 3]);
    await cached.render(image({ size: 2 }));
    expect(inner.calls.map((c) => c.size)).toEqual([1, 2, 3, 2]);

    const small = new CachedQrRenderer(inner, { maxEntries: 100, maxBytes: 60 });
    for (const size of [10, 20, 30]) await small.render(image({ size }));
    const before = inner.calls.length;
    await small.render(image({ size: 10 }));
    expect(inner.calls.length).toBe(before + 1);
  });

  // Anyone can ask for the QR code of any of their links at any size: a flood of distinct images keeps only the last few.
  it('keeps no more than maxEntries images through a flood of distinct ones', async () => {
    const inner = new CountingRenderer();
    const cached = new CachedQrRenderer(inner, { maxEntries: 2, maxBytes: 1_000_000 });
    for (let size = 1; size <= 500; size++) await cached.render(image({ size }));
    await cached.render(image({ size: 500 }));
    await cached.render(image({ size: 499 }));
    expect(inner.calls).toHaveLength(500);
    await cached.render(image({ size: 498 }));
    expect(inner.calls).toHaveLength(501);
  });
});

describe('PiscinaQrRenderer', () => {
  let renderer: PiscinaQrRenderer;
  afterEach(() => renderer?.onApplicationShutdown());

  it('draws PNG and SVG on a worker thread', async () => {
    renderer = new PiscinaQrRenderer({ maxThreads: 1, maxQueue: 4 });
    const png = await renderer.render({ text: 'https://s.example/x', size: 128, format: 'png' });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const svg = await renderer.render({ text: 'https://s.example/x', size: 128, format: 'svg' });
    expect(svg.toString()).toMatch(/^<svg/);
  });

  // Bounded concurrency: a burst of drawings must neither start a thread each nor queue without end.
  it('draws at most `maxThreads` at once and refuses beyond its queue', async () => {
    renderer = new PiscinaQrRenderer({ maxThreads: 2, maxQueue: 3 });
    const images = Array.from({ length: 5 }, (_, i) => renderer.render({ text: `https://s.example/${i}`, size: 512, format: 'png' }));
    expect(renderer.threads).toBe(2);
    expect(renderer.queued).toBe(3);
    await expect(renderer.render({ text: 'https://s.example/too-many', size: 64, format: 'png' })).rejects.toBeInstanceOf(QrBusyError);
    const drawn = await Promise.all(images);
    expect(drawn.every((png) => png.subarray(1, 4).toString() === 'PNG')).toBe(true);
    expect(renderer.threads).toBeLessThanOrEqual(2);
    expect(renderer.queued).toBe(0);
  });

  // A shutdown must not leave requests waiting on threads that are gone, nor start new ones.
  it('refuses the waiting drawings at shutdown, and every drawing after it', async () => {
    renderer = new PiscinaQrRenderer({ maxThreads: 1, maxQueue: 3 });
    const waiting = Promise.allSettled(
      Array.from({ length: 3 }, (_, i) => renderer.render({ text: `https://s.example/${i}`, size: 512, format: 'png' })),
    );
    await renderer.onApplicationShutdown();
    const outcomes = await waiting;
    expect(outcomes).toHaveLength(3);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 'rejected', reason: expect.any(QrBusyError) });
    await expect(renderer.render({ text: 'https://s.example/late', size: 64, format: 'png' })).rejects.toBeInstanceOf(QrBusyError);
    expect(renderer.threads).toBe(0);
  });
});
