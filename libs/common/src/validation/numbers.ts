import { applyDecorators } from '@nestjs/common';
import { IsNumber, Max, Min } from 'class-validator';

/**
 * The range of every client-set ordering number: work item, label, module, cycle and sticky
 * `sort_order`, state `sequence` (floats; Plane starts them at 65535 and moves them by ±10000 or
 * by halving the gap). Wide for any client, and far inside what a double holds exactly to the
 * 1/1000 (docs/decisions.md, "Numbers from clients are finite and bounded"); lists order any stored
 * double anyway (`doubleSortKey`).
 */
export const SORT_ORDER_MIN = -1e12;
export const SORT_ORDER_MAX = 1e12;

/**
 * A JSON number that is finite (not NaN, not ±Infinity, which an overflowing literal such as
 * `1e999` parses to) and within `[min, max]`; otherwise a 422 `VALIDATION_ERROR` naming the field.
 * class-validator's `IsNumber` + `Min` + `Max`, so the OpenAPI schema shows `minimum`/`maximum`.
 */
export function IsFiniteInRange(min: number, max: number): PropertyDecorator {
  return applyDecorators(IsNumber({ allowNaN: false, allowInfinity: false }), Min(min), Max(max));
}
