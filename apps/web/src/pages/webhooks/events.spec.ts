import { deliveryOutcome, EVENT_OPTIONS } from './events';

describe('webhook events and deliveries in words', () => {
  it('offers every event the API knows, with its name beside the words (what a receiver switches on)', () => {
    expect(EVENT_OPTIONS.map((option) => option.value)).toEqual([
      'link.created',
      'link.updated',
      'link.deleted',
      'link.clicked',
      'link.expired',
      'link.limit_reached',
    ]);
    expect(EVENT_OPTIONS[0].label).toBe('A link is created (link.created)');
  });

  const delivery = { status: 'pending' as const, responseStatus: null, lastError: null, attempts: 0, nextAttemptAt: null };

  it('says a delivery that has not been tried is waiting', () => {
    expect(deliveryOutcome(delivery)).toBe('Waiting to be sent');
  });

  it('says what the receiver answered when delivered', () => {
    expect(deliveryOutcome({ ...delivery, status: 'delivered', responseStatus: 204, attempts: 1 })).toBe(
      'Delivered (answered 204, 1 attempt)',
    );
  });

  it('says why a delivery failed for good, so the owner can mend the receiver', () => {
    expect(deliveryOutcome({ ...delivery, status: 'failed', responseStatus: 500, attempts: 8, lastError: 'HTTP 500' })).toBe(
      'Failed after 8 attempts (answered 500): HTTP 500',
    );
    expect(deliveryOutcome({ ...delivery, status: 'failed', attempts: 3, lastError: 'timed out' })).toBe(
      'Failed after 3 attempts (no answer): timed out',
    );
  });

  it('says a retried delivery will be tried again', () => {
    expect(deliveryOutcome({ ...delivery, responseStatus: 503, attempts: 2 })).toBe('Will try again (answered 503, 2 attempts)');
  });
});
