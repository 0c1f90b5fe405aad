import * as assert from 'node:assert/strict';
import { normalizeEvent } from '../../src/core/client';
import { DEFAULT_SCHEDULE, failureDelay, pollDelay, SeenEvents } from '../../src/core/events';

describe('watch schedule and memory', () => {
  it('polls fast after activity and at most 6 times a minute after a quiet minute', () => {
    assert.equal(pollDelay(0), 1_000);
    assert.ok(pollDelay(30_000) > 1_000 && pollDelay(30_000) <= 10_000);
    assert.ok(60_000 / pollDelay(61_000) <= 6);
    assert.ok(60_000 / pollDelay(3_600_000, { ...DEFAULT_SCHEDULE, quietMs: 30_000 }) <= 2);
  });

  it('backs off exponentially with jitter, within a ceiling', () => {
    assert.equal(
      failureDelay(1, DEFAULT_SCHEDULE, () => 0),
      500,
    );
    assert.equal(
      failureDelay(1, DEFAULT_SCHEDULE, () => 1),
      1_000,
    );
    assert.equal(
      failureDelay(4, DEFAULT_SCHEDULE, () => 1),
      8_000,
    );
    assert.equal(
      failureDelay(30, DEFAULT_SCHEDULE, () => 1),
      60_000,
    );
  });

  it('remembers a bounded number of ids and covers the forgotten ones with a start-time watermark', () => {
    const seen = new SeenEvents(100);
    for (let i = 0; i < 1_000; i++) seen.add(normalizeEvent({ id: `e${i}`, data: { timings: { startTime: 1_700_000_000_000 + i } } }));
    assert.ok(seen.size <= 110);
    assert.ok(seen.has(normalizeEvent({ id: 'e5', data: { timings: { startTime: 1_700_000_000_005 } } })), 'forgotten but below the watermark');
    assert.ok(!seen.has(normalizeEvent({ id: 'new', data: { timings: { startTime: 1_700_000_001_000 } } })));
    for (let i = 0; i < 1_000; i++) seen.add(normalizeEvent({ id: `u${i}` }));
    assert.ok(seen.size <= 210);
  });
});
