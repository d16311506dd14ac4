// The cursor codec (docs/reference/http-interface.md §8): `<value>:<offset>:<is_prev>`, no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCursor, parseCursor } from './cursor';

describe('cursor codec', () => {
  it('reads the three parts, and writes back what it read', () => {
    assert.deepEqual(parseCursor('1732000000000000:3:1'), { value: 1732000000000000, offset: 3, isPrev: true });
    assert.deepEqual(parseCursor(' 100:0:0 '), { value: 100, offset: 0, isPrev: false });
    for (const raw of ['0:0:0', '42:7:1', '9007199254740991:999999999:0'])
      assert.equal(formatCursor(parseCursor(raw)), raw);
  });

  it('refuses anything else with 400 INVALID_CURSOR', () => {
    for (const raw of [
      '',
      '1:2',
      '1:2:3:4',
      '-1:0:0',
      '1:-1:0',
      '1:0:2',
      'a:0:0',
      '1.5:0:0',
      '99999999999999999:0:0',
      '9007199254740993:0:0',
      '1:1234567890:0',
    ]) {
      assert.throws(
        () => parseCursor(raw),
        (err: { code?: string; status?: number }) => err.code === 'INVALID_CURSOR' && err.status === 400,
        raw,
      );
    }
  });
});
