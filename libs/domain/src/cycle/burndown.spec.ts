// Plane's burndown plot (plane/utils/analytics_plot.py burndown_plot), no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { burndown, dayIn, MAX_CHART_DAYS } from './burndown';

describe('burndown', () => {
  it("is the total less what was completed up to the end of each day; days after today hold today's amount (no null: Plane's chart draws null as NaN)", () => {
    const chart = burndown(
      '2025-01-30',
      '2025-02-03',
      10,
      [
        { day: '2025-02-01', n: 3 },
        { day: '2025-01-29', n: 1 }, // before the first day: counted from the start
        { day: '2025-01-31', n: 2 },
      ],
      '2025-02-02',
    );
    assert.deepEqual(chart, {
      '2025-01-30': 9,
      '2025-01-31': 7,
      '2025-02-01': 4,
      '2025-02-02': 4,
      '2025-02-03': 4,
    });
  });

  it('draws at most MAX_CHART_DAYS days, and nothing when the last day is before the first', () => {
    assert.equal(Object.keys(burndown('2000-01-01', '2100-01-01', 1, [], '2000-01-01')).length, MAX_CHART_DAYS);
    assert.deepEqual(burndown('2025-02-02', '2025-02-01', 1, [], '2025-02-02'), {});
  });

  it('dayIn: the calendar day of an instant in a time zone', () => {
    const at = new Date('2025-03-01T02:30:00Z');
    assert.equal(dayIn(at, 'UTC'), '2025-03-01');
    assert.equal(dayIn(at, 'America/New_York'), '2025-02-28');
    assert.equal(dayIn(at, 'Asia/Tokyo'), '2025-03-01');
  });
});
