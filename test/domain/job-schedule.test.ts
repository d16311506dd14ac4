import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currentSlot, describeSchedule, nextSlot } from '#domain';

const at = (iso: string) => new Date(iso);

describe('domain: job schedules (kernel/jobs/schedule.ts)', () => {
  it('every N minutes: slots aligned on the hour, as cron’s */N', () => {
    const s = { every: 5 };
    assert.equal(currentSlot(s, at('2026-03-01T10:07:59.999Z')).toISOString(), '2026-03-01T10:05:00.000Z');
    assert.equal(currentSlot(s, at('2026-03-01T10:05:00.000Z')).toISOString(), '2026-03-01T10:05:00.000Z');
    assert.equal(nextSlot(s, at('2026-03-01T10:07:00Z')).toISOString(), '2026-03-01T10:10:00.000Z');
    assert.equal(nextSlot(s, at('2026-03-01T23:58:00Z')).toISOString(), '2026-03-02T00:00:00.000Z');
    assert.equal(describeSchedule(s), 'every 5 minutes');
  });

  it('daily at HH:MM UTC: today’s time once passed, else yesterday’s', () => {
    const s = { dailyAt: '01:30' };
    assert.equal(currentSlot(s, at('2026-03-01T01:29:59Z')).toISOString(), '2026-02-28T01:30:00.000Z');
    assert.equal(currentSlot(s, at('2026-03-01T01:30:00Z')).toISOString(), '2026-03-01T01:30:00.000Z');
    assert.equal(currentSlot(s, at('2026-03-01T23:00:00Z')).toISOString(), '2026-03-01T01:30:00.000Z');
    assert.equal(nextSlot(s, at('2026-03-01T01:30:00Z')).toISOString(), '2026-03-02T01:30:00.000Z');
    assert.equal(nextSlot(s, at('2026-03-01T00:10:00Z')).toISOString(), '2026-03-01T01:30:00.000Z');
    assert.equal(describeSchedule({ dailyAt: '00:00' }), 'daily at 00:00 UTC');
  });

  it('refuses a time that is not HH:MM', () => {
    assert.throws(() => currentSlot({ dailyAt: '24:00' }, new Date()), /HH:MM/);
    assert.throws(() => currentSlot({ dailyAt: '1:30' }, new Date()), /HH:MM/);
  });
});
