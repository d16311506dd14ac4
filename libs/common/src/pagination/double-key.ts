/**
 * The integer sort key of a `double precision` SQL expression, for the keyset cursor (whose value
 * is a non-negative safe integer): the IEEE 754 bit pattern made order-preserving (a negative
 * value's magnitude bits flipped), shifted right by 11 bits to fit 53 bits, offset to be
 * non-negative (0 … 2^53 − 1). Monotone over every double, ±Infinity and NaN included, so no stored
 * value can overflow it (`ROUND(x * 1000)::bigint` did beyond ±9.2e15: a 500 on every list).
 * Two values share a key only when within about 2^-41 of each other, relatively (65535 and
 * 65535.00000003 still differ); rows sharing a key are ordered by id, as any tie.
 * Plain SQL functions (`float8send`, `encode`, bit casts): the same on PostgreSQL and PGlite.
 */
export function doubleSortKey(expression: string): string {
  const bits = `('x' || encode(float8send((${expression})::double precision), 'hex'))::bit(64)::bigint`;
  return `(((${bits} # ((${bits} >> 63) & 9223372036854775807)) >> 11) + 4503599627370496)`;
}
