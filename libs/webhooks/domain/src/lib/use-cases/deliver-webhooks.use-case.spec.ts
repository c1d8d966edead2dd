import { Clock, Page } from '@lnk/shared/kernel';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../model/retry-schedule';
import { SendResult, WebhookSecretBox, WebhookSender, WebhookSigner } from '../ports/outbound.ports';
import { AttemptOutcome, ClaimedDelivery, Delivery, WebhookOutbox } from '../ports/webhook-outbox.port';
import { DeliverWebhooksUseCase } from './deliver-webhooks.use-case';

class FixedClock extends Clock {
  constructor(public at = new Date('2025-01-01T00:00:00Z')) {
    super();
  }
  now() {
    return new Date(this.at);
  }
}

/** One delivery, always due again; copies on read and write. */
class OneDeliveryOutbox extends WebhookOutbox {
  failuresInARow = 0;
  disabled: string | null = null;
  nextAttemptAt: Date | null = null;
  private delivery: ClaimedDelivery = { id: 'd1', messageId: 'msg_d1', webhookId: 'w1', url: 'https://example.com/', sealedSecret: 'sealed', body: '{}', attempts: 0 };
  async enqueue() { return 0; }
  async enqueueSeries() { return 0; }
  calls: string[] = [];
  async expandBatches(_now: Date, maxDue: number, maxBatches: number) { this.calls.push(`expand ${maxDue} ${maxBatches}`); return 7; }
  async claimDue(_now: Date, limit: number): Promise<ClaimedDelivery[]> { this.calls.push(`claim ${limit}`); return this.disabled ? [] : [{ ...this.delivery }]; }
  successes: string[] = [];
  async recordSuccesses(list: { delivery: ClaimedDelivery }[]) { this.failuresInARow = 0; this.successes.push(...list.map((s) => s.delivery.id)); this.calls.push(`successes ${list.length}`); }
  async recordFailure(d: ClaimedDelivery, _o: AttemptOutcome, next: Date | null) {
    this.delivery = { ...d, attempts: d.attempts + 1 };
    this.nextAttemptAt = next;
    return ++this.failuresInARow;
  }
  async disableWebhook(_id: string, reason: string) { this.disabled = reason; }
  async listOfWebhook(): Promise<Page<Delivery>> { return { items: [], total: 0, start: 0, limit: 10 } as unknown as Page<Delivery>; }
  async subscriptions() { return new Map(); }
  async purgeFinished() { return 0; }
}

const failing: WebhookSender = { send: async (): Promise<SendResult> => ({ status: 503, error: null }) };
const signer: WebhookSigner = { sign: () => 'v1,sig' };
const box: WebhookSecretBox = { seal: (s) => s, open: (s) => s };

describe('the retry schedule', () => {
  it('backs off 4 times longer each attempt, capped at 8 hours, for about a day, with ±25 % jitter', () => {
    const delays = Array.from({ length: 8 }, (_, i) => retryDelayMs(i + 1, DEFAULT_RETRY_POLICY, 0.5) as number);
    expect(delays.map((d) => d / 1000)).toEqual([15, 60, 240, 960, 3840, 15360, 28800, 28800]);
    const total = delays.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThan(26);
    expect(retryDelayMs(9, DEFAULT_RETRY_POLICY, 0.5)).toBeNull();
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, 0)).toBe(11_250);
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, 0.999999)).toBe(18_750);
  });
});

describe('DeliverWebhooksUseCase', () => {
  it('schedules retries, marks the delivery failed when attempts run out, and turns the webhook off after failures in a row, saying why', async () => {
    const outbox = new OneDeliveryOutbox();
    const clock = new FixedClock();
    const deliver = new DeliverWebhooksUseCase(outbox, failing, signer, box, clock, { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, batchSize: 10, leaseMs: 60_000, disableAfterFailures: 5, retentionMs: 1 }, () => 0.5);
    await deliver.execute();
    expect(outbox.nextAttemptAt?.getTime()).toBe(clock.at.getTime() + 15_000);
    await deliver.execute();
    await deliver.execute();
    // The third attempt was the last: no next one.
    expect(outbox.nextAttemptAt).toBeNull();
    await deliver.execute();
    await deliver.execute();
    expect(outbox.disabled).toMatch(/5 failed deliveries in a row; the last: HTTP 503/);
    expect((await deliver.execute()).claimed).toBe(0);
  });

  it('does not send when the secret does not open (another key): the attempt fails with the reason', async () => {
    const outbox = new OneDeliveryOutbox();
    let sent = 0;
    const sender: WebhookSender = { send: async () => ((sent += 1), { status: 200, error: null }) };
    const deliver = new DeliverWebhooksUseCase(outbox, sender, signer, { seal: (s) => s, open: () => null }, new FixedClock(), { ...DEFAULT_RETRY_POLICY, batchSize: 1, leaseMs: 1, disableAfterFailures: 100, retentionMs: 1 });
    expect(await deliver.execute()).toEqual({ expanded: 7, claimed: 1, delivered: 0, failed: 1 });
    expect(sent).toBe(0);
  });

  it('makes batched events into deliveries before each claim, only while fewer than ten batches of deliveries are due', async () => {
    // The bound keeps expansion at the delivery rate: a click flood stays in its compact batches.
    const outbox = new OneDeliveryOutbox();
    const ok: WebhookSender = { send: async () => ({ status: 200, error: null }) };
    const deliver = new DeliverWebhooksUseCase(outbox, ok, signer, box, new FixedClock(), { ...DEFAULT_RETRY_POLICY, batchSize: 20, leaseMs: 1, disableAfterFailures: 100, retentionMs: 1 });
    expect(await deliver.execute()).toEqual({ expanded: 7, claimed: 1, delivered: 1, failed: 0 });
    expect(outbox.calls).toEqual(['expand 200 50', 'claim 20', 'successes 1']);
  });

  // The expansion step's statement (it counts the due deliveries) cost PostgreSQL three times what the
  // expansions did when taken before every claim of a backlog: while claims are full it is taken once in five runs.
  it('takes the expansion step once in five runs while claims come back full, and at once after one that is not', async () => {
    const outbox = new OneDeliveryOutbox();
    const ok: WebhookSender = { send: async () => ({ status: 200, error: null }) };
    const options = { ...DEFAULT_RETRY_POLICY, leaseMs: 1, disableAfterFailures: 100, retentionMs: 1 };
    // A batch of one: the one due delivery fills every claim.
    const full = new DeliverWebhooksUseCase(outbox, ok, signer, box, new FixedClock(), { ...options, batchSize: 1 });
    const runs = [];
    for (let i = 0; i < 11; i++) runs.push((await full.execute()).expanded);
    expect(runs).toEqual([7, 0, 0, 0, 0, 7, 0, 0, 0, 0, 7]);
    expect(outbox.calls.filter((c) => c.startsWith('claim'))).toHaveLength(11);
    // A batch of twenty: one delivery does not fill it, so every run looks for batches to expand.
    outbox.calls = [];
    const notFull = new DeliverWebhooksUseCase(outbox, ok, signer, box, new FixedClock(), { ...options, batchSize: 20 });
    for (let i = 0; i < 3; i++) await notFull.execute();
    expect(outbox.calls.filter((c) => c.startsWith('expand'))).toHaveLength(3);
  });
});
