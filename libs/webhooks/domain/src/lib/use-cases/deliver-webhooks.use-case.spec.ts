import { Page } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { nextInFlightLimit } from '../model/in-flight-limit';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../model/retry-schedule';
import { SendResult, WebhookSecretBox, WebhookSender, WebhookSigner } from '../ports/outbound.ports';
import { AttemptOutcome, ClaimedDelivery, Delivery, WebhookOutbox } from '../ports/webhook-outbox.port';
import { DeliverWebhooksUseCase, DeliveryOptions } from './deliver-webhooks.use-case';

interface Stored {
  delivery: ClaimedDelivery;
  due: boolean;
  inFlight: boolean;
}

/**
 * Due deliveries as the TypeORM outbox keeps them, copied on read and write: a claim takes due ones that
 * are not in flight, each webhook's oldest first and in turns, within the webhook's in-flight limit (its
 * stored one, at most the cap) less those in flight; recording an outcome ends the flight.
 */
class MemoryOutbox extends WebhookOutbox {
  stored: Stored[] = [];
  limits = new Map<string, number>();
  failuresInARow = new Map<string, number>();
  disabled = new Map<string, string>();
  calls: string[] = [];
  nextAttemptAt: Date | null = null;

  add(webhookId: string, n: number): void {
    for (let i = 0; i < n; i++) {
      const id = `${webhookId}-${this.stored.length}`;
      this.stored.push({
        delivery: {
          id,
          messageId: `msg_${id}`,
          webhookId,
          url: `https://${webhookId}.example/`,
          sealedSecret: 'sealed',
          body: '{}',
          attempts: 0,
          inFlightLimit: null,
        },
        due: true,
        inFlight: false,
      });
    }
  }
  inFlightOf(webhookId: string): number {
    return this.stored.filter((s) => s.inFlight && s.delivery.webhookId === webhookId).length;
  }
  async enqueue() {
    return 0;
  }
  async enqueueSeries() {
    return 0;
  }
  async expandBatches(_now: Date, maxDue: number, maxBatches: number) {
    this.calls.push(`expand ${maxDue} ${maxBatches}`);
    return 7;
  }
  async claimDue(_now: Date, limit: number, _leaseMs: number, cap: number): Promise<ClaimedDelivery[]> {
    this.calls.push(`claim ${limit}`);
    const byWebhook = new Map<string, Stored[]>();
    for (const s of this.stored.filter((x) => x.due && !x.inFlight && !this.disabled.has(x.delivery.webhookId))) {
      byWebhook.set(s.delivery.webhookId, [...(byWebhook.get(s.delivery.webhookId) ?? []), s]);
    }
    const turns: { s: Stored; turn: number }[] = [];
    for (const [webhookId, due] of byWebhook) {
      const room = Math.min(this.limits.get(webhookId) ?? cap, cap) - this.inFlightOf(webhookId);
      due.slice(0, Math.max(room, 0)).forEach((s, turn) => turns.push({ s, turn }));
    }
    const taken = turns
      .sort((a, b) => a.turn - b.turn)
      .slice(0, limit)
      .map((t) => t.s);
    for (const s of taken) s.inFlight = true;
    return taken.map((s) => ({ ...s.delivery, inFlightLimit: this.limits.get(s.delivery.webhookId) ?? null }));
  }
  async recordSuccesses(list: { delivery: ClaimedDelivery; outcome: AttemptOutcome }[]) {
    this.calls.push(`successes ${list.length}`);
    for (const { delivery } of list) {
      this.stored = this.stored.filter((s) => s.delivery.id !== delivery.id);
      this.failuresInARow.set(delivery.webhookId, 0);
    }
  }
  async recordFailure(d: ClaimedDelivery, _o: AttemptOutcome, next: Date | null) {
    const s = this.stored.find((x) => x.delivery.id === d.id) as Stored;
    s.delivery = { ...s.delivery, attempts: d.attempts + 1 };
    s.inFlight = false;
    // Out of attempts: failed, never due again; else due again (these tests' clocks do not wait for the backoff).
    s.due = next !== null;
    this.nextAttemptAt = next;
    const failures = (this.failuresInARow.get(d.webhookId) ?? 0) + 1;
    this.failuresInARow.set(d.webhookId, failures);
    return failures;
  }
  async setInFlightLimit(webhookId: string, limit: number | null) {
    this.calls.push(`limit ${webhookId} ${limit}`);
    if (limit === null) this.limits.delete(webhookId);
    else this.limits.set(webhookId, limit);
  }
  async disableWebhook(id: string, reason: string) {
    this.disabled.set(id, reason);
  }
  async listOfWebhook(): Promise<Page<Delivery>> {
    throw new Error('not used');
  }
  async subscriptions() {
    return new Map();
  }
  async purgeFinished() {
    return 0;
  }
}

/** A receiver per webhook whose answers the test gives: each send waits until the test answers it. */
class HeldSender extends WebhookSender {
  held: { url: string; answer: (result: SendResult) => void }[] = [];
  send(url: string): Promise<SendResult> {
    return new Promise((answer) => this.held.push({ url, answer }));
  }
  heldFor(webhookId: string) {
    return this.held.filter((h) => h.url.startsWith(`https://${webhookId}.`));
  }
  answer(webhookId: string, result: SendResult = { status: 204, error: null }) {
    const [first] = this.heldFor(webhookId);
    this.held.splice(this.held.indexOf(first), 1);
    first.answer(result);
  }
}

const failing: WebhookSender = { send: async (): Promise<SendResult> => ({ status: 503, error: null }) };
const ok: WebhookSender = { send: async (): Promise<SendResult> => ({ status: 200, error: null }) };
const signer: WebhookSigner = { sign: () => 'v1,sig' };
const box: WebhookSecretBox = { seal: (s) => s, open: (s) => s };
/** One look, and its sends to their end (outcomes recorded). */
async function toTheEnd(deliver: DeliverWebhooksUseCase) {
  const run = await deliver.execute();
  await run.sent;
  return run;
}
const OPTIONS: DeliveryOptions = {
  ...DEFAULT_RETRY_POLICY,
  batchSize: 20,
  maxInFlightPerWebhook: 5,
  slowAnswerMs: 5_000,
  leaseMs: 60_000,
  disableAfterFailures: 100,
  retentionMs: 1,
};

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

describe('the in-flight limit of a webhook', () => {
  it('halves on a slow answer down to 1, rises by one on a prompt one back to the cap, and stores nothing at the cap', () => {
    const slow = (from: number | null, cap = 8) => nextInFlightLimit(from, true, cap);
    const prompt = (from: number | null, cap = 8) => nextInFlightLimit(from, false, cap);
    expect([slow(null), slow(4), slow(3), slow(1), slow(1, 1)]).toEqual([4, 2, 1, 1, 1]);
    expect([prompt(null), prompt(1), prompt(6), prompt(7), prompt(12)]).toEqual([null, 2, 7, null, null]);
  });
});

describe('DeliverWebhooksUseCase', () => {
  it(
    'schedules retries, marks the delivery failed when attempts run out, and ' +
      'turns the webhook off after failures in a row, saying why',
    async () => {
      const outbox = new MemoryOutbox();
      outbox.add('w1', 2);
      const clock = new FixedClock();
      const deliver = new DeliverWebhooksUseCase(
        { outbox, sender: failing, signer, box, clock, random: () => 0.5 },
        { ...OPTIONS, maxAttempts: 3, batchSize: 1, disableAfterFailures: 5 },
      );
      const attempt = async () => {
        return toTheEnd(deliver);
      };
      await attempt();
      expect(outbox.nextAttemptAt?.getTime()).toBe(clock.now().getTime() + 15_000);
      await attempt();
      await attempt();
      // The third attempt was the last: no next one.
      expect(outbox.nextAttemptAt).toBeNull();
      // The second delivery's attempts continue the webhook's run of failures.
      await attempt();
      expect(outbox.disabled.has('w1')).toBe(false);
      await attempt();
      expect(outbox.disabled.get('w1')).toMatch(/5 failed deliveries in a row; the last: HTTP 503/);
      expect((await attempt()).claimed).toBe(0);
    },
  );

  it('does not send when the secret does not open (another key): the attempt fails with the reason', async () => {
    const outbox = new MemoryOutbox();
    outbox.add('w1', 1);
    let sent = 0;
    const sender: WebhookSender = { send: async () => ((sent += 1), { status: 200, error: null }) };
    const deliver = new DeliverWebhooksUseCase(
      { outbox, sender, signer, box: { seal: (s) => s, open: () => null }, clock: new FixedClock() },
      { ...OPTIONS, batchSize: 1 },
    );
    expect(await toTheEnd(deliver)).toMatchObject({ expanded: 7, claimed: 1, room: 1 });
    expect(sent).toBe(0);
    expect(outbox.failuresInARow.get('w1')).toBe(1);
  });

  it('makes batched events into deliveries before each claim, only while fewer than ten batches of deliveries are due', async () => {
    // The bound keeps expansion at the delivery rate: a click flood stays in its compact batches.
    const outbox = new MemoryOutbox();
    outbox.add('w1', 1);
    const deliver = new DeliverWebhooksUseCase({ outbox, sender: ok, signer, box, clock: new FixedClock() }, OPTIONS);
    expect(await toTheEnd(deliver)).toMatchObject({ expanded: 7, claimed: 1, room: 20 });
    expect(outbox.calls).toEqual(['expand 200 50', 'claim 20', 'successes 1']);
  });

  // The expansion step's statement (it counts the due deliveries) cost PostgreSQL three times what the
  // expansions did when taken before every claim of a backlog.
  it(
    'takes the expansion step once per five batches claimed while claims come back full, ' +
      'once per batch while they take some, at once after one that took none',
    async () => {
      const outbox = new MemoryOutbox();
      outbox.add('w1', 11);
      // A batch of one: every claim is full while deliveries are due.
      const full = new DeliverWebhooksUseCase({ outbox, sender: ok, signer, box, clock: new FixedClock() }, { ...OPTIONS, batchSize: 1 });
      const runs = [];
      for (let i = 0; i < 11; i++) {
        runs.push((await toTheEnd(full)).expanded);
      }
      expect(runs).toEqual([7, 0, 0, 0, 0, 7, 0, 0, 0, 0, 7]);
      expect(outbox.calls.filter((c) => c.startsWith('claim'))).toHaveLength(11);
      // A batch of four, one webhook at its limit of two: each claim takes some, not all it has room for.
      outbox.add('w2', 12);
      const capped = new DeliverWebhooksUseCase(
        { outbox, sender: ok, signer, box, clock: new FixedClock() },
        { ...OPTIONS, batchSize: 4, maxInFlightPerWebhook: 2 },
      );
      const cappedRuns = [];
      for (let i = 0; i < 6; i++) {
        cappedRuns.push(await toTheEnd(capped));
      }
      expect(cappedRuns.map((r) => [r.claimed, r.expanded])).toEqual([
        [2, 7],
        [2, 0],
        [2, 7],
        [2, 0],
        [2, 7],
        [2, 0],
      ]);
      // Nothing due: after a claim that took none, every run looks for batches to expand.
      expect(await capped.execute()).toMatchObject({ claimed: 0 });
      outbox.calls = [];
      for (let i = 0; i < 3; i++) await capped.execute();
      expect(outbox.calls.filter((c) => c.startsWith('expand'))).toHaveLength(3);
    },
  );

  // Issue 27, finding 4: a run waited for its slowest send, so a slow receiver held every other webhook's
  // deliveries behind it. Slowness here is the test's hand (sends answered when it says), not a clock.
  it("does not wait for a slow receiver: another webhook's deliveries are taken and sent while its sends are held", async () => {
    const outbox = new MemoryOutbox();
    outbox.add('slow', 30);
    const sender = new HeldSender();
    const deliver = new DeliverWebhooksUseCase(
      { outbox, sender, signer, box, clock: new FixedClock() },
      { ...OPTIONS, batchSize: 10, maxInFlightPerWebhook: 3 },
    );
    const slow = await deliver.execute();
    expect(slow).toMatchObject({ claimed: 3, room: 10 });
    expect(sender.heldFor('slow')).toHaveLength(3);
    // A second webhook's delivery comes due while the slow one's three are held: the next look takes it.
    outbox.add('quick', 1);
    const quick = await deliver.execute();
    expect(quick).toMatchObject({ claimed: 1, room: 7 });
    sender.answer('quick');
    await quick.sendEnded;
    await quick.sent;
    expect(outbox.stored.filter((s) => s.delivery.webhookId === 'quick')).toEqual([]);
    expect(sender.heldFor('slow')).toHaveLength(3);
    // The slow webhook is at its limit: nothing more of it is taken until its sends are answered and recorded.
    const capped = await deliver.execute();
    expect(capped).toMatchObject({ claimed: 0 });
    for (let i = 0; i < 3; i++) sender.answer('slow');
    await capped.sendEnded;
    await slow.sent;
    const next = await deliver.execute();
    expect(next).toMatchObject({ claimed: 3 });
    expect(outbox.stored).toHaveLength(27);
    for (const h of sender.held.splice(0)) h.answer({ status: 204, error: null });
    await next.sent;
  });

  it('halves the in-flight limit of a webhook that answers slowly (a 2xx included) and raises it back as it answers promptly', async () => {
    const outbox = new MemoryOutbox();
    outbox.add('w1', 12);
    const clock = new FixedClock();
    let took = 0;
    const sender: WebhookSender = { send: async () => (clock.advance(took), { status: 200, error: null }) };
    const deliver = new DeliverWebhooksUseCase(
      { outbox, sender, signer, box, clock },
      { ...OPTIONS, batchSize: 1, maxInFlightPerWebhook: 4, slowAnswerMs: 5_000 },
    );
    const once = async () => {
      await toTheEnd(deliver);
      return outbox.limits.get('w1') ?? null;
    };
    took = 5_001;
    expect([await once(), await once(), await once()]).toEqual([2, 1, 1]);
    // The limit is what the next claim reads: one in flight at most.
    outbox.calls = [];
    took = 5_000;
    expect([await once(), await once(), await once()]).toEqual([2, 3, null]);
    expect(outbox.calls.filter((c) => c.startsWith('limit'))).toEqual(['limit w1 2', 'limit w1 3', 'limit w1 null']);
    // At the cap and prompt: nothing is written.
    outbox.calls = [];
    await once();
    expect(outbox.calls.filter((c) => c.startsWith('limit'))).toEqual([]);
  });

  it('counts a timeout as a slow answer too', async () => {
    const outbox = new MemoryOutbox();
    outbox.add('w1', 1);
    const clock = new FixedClock();
    const sender: WebhookSender = { send: async () => (clock.advance(10_000), { status: null, error: 'no answer within 10 s' }) };
    const deliver = new DeliverWebhooksUseCase({ outbox, sender, signer, box, clock }, { ...OPTIONS, maxInFlightPerWebhook: 4 });
    await toTheEnd(deliver);
    expect(outbox.limits.get('w1')).toBe(2);
    expect(outbox.failuresInARow.get('w1')).toBe(1);
  });

  it(
    "records a webhook's successes of one claim in one statement once " + "they are answered; another webhook's do not wait for them",
    async () => {
      const outbox = new MemoryOutbox();
      outbox.add('a', 1);
      outbox.add('b', 5);
      const sender = new HeldSender();
      const deliver = new DeliverWebhooksUseCase({ outbox, sender, signer, box, clock: new FixedClock() }, OPTIONS);
      const run = await deliver.execute();
      expect(run).toMatchObject({ claimed: 6 });
      for (let i = 0; i < 4; i++) sender.answer('b');
      sender.answer('a');
      await run.sendEnded;
      // a's group is recorded while one of b's is still unanswered.
      expect(outbox.calls.filter((c) => c.startsWith('successes'))).toEqual(['successes 1']);
      expect(await deliver.execute()).toMatchObject({ room: 15 });
      sender.answer('b');
      await run.sent;
      expect(outbox.calls.filter((c) => c.startsWith('successes'))).toEqual(['successes 1', 'successes 5']);
      expect(outbox.stored).toEqual([]);
    },
  );

  it("halves a webhook's limit once for a group with slow answers, as TCP once per window", async () => {
    const outbox = new MemoryOutbox();
    outbox.add('w1', 4);
    const clock = new FixedClock();
    const sender: WebhookSender = { send: async () => (clock.advance(6_000), { status: 204, error: null }) };
    const deliver = new DeliverWebhooksUseCase({ outbox, sender, signer, box, clock }, { ...OPTIONS, maxInFlightPerWebhook: 4 });
    expect(await toTheEnd(deliver)).toMatchObject({ claimed: 4 });
    expect(outbox.calls.filter((c) => c.startsWith('limit'))).toEqual(['limit w1 2']);
  });

  it('tells onError when successes could not be recorded (once for the group, not per delivery), and frees the sends', async () => {
    const outbox = new MemoryOutbox();
    outbox.add('a', 5);
    outbox.recordSuccesses = async () => {
      throw new Error('database away');
    };
    const errors: string[] = [];
    const deliver = new DeliverWebhooksUseCase(
      { outbox, sender: ok, signer, box, clock: new FixedClock(), onError: (e) => errors.push(e.message) },
      OPTIONS,
    );
    await toTheEnd(deliver);
    expect(errors).toEqual(['database away']);
    expect(await deliver.execute()).toMatchObject({ room: 20 });
  });
});
