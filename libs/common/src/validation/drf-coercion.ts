import { getMetadataStorage } from 'class-validator';

/**
 * Django REST framework's input coercions (DRF 3.15, Plane 0.25.3's), applied by
 * `RequestValidationPipe` to every DTO before it is validated, so each route accepts what Plane's
 * serializers accept (Plane's web app sends `{"role": "20"}` to change a member's role):
 *
 * - an integer field (`@IsInt`, or `@IsIn` of integers only) takes a string DRF's
 *   `IntegerField.to_internal_value` takes: an optional sign and digits, with surrounding spaces and
 *   an all-zero fraction (`"20"`, `" 20 "`, `"20.0"`); `"20.5"`, `"abc"`, `""` stay strings and are
 *   refused by the validators (422);
 * - a number field (`@IsNumber`, `@Min`/`@Max`, or `@IsIn` of numbers) takes a finite decimal
 *   string (`FloatField`: `"1.5"`, `" 2e3 "`);
 * - a boolean field (`@IsBoolean`) takes `BooleanField`'s `TRUE_VALUES`/`FALSE_VALUES` (`"true"`,
 *   `"True"`, `"1"`, `1`, `"yes"`, `"on"`, `"t"`, `"y"`… and their false counterparts).
 *
 * Only fields whose validators declare a number or a boolean are touched, and only when they hold
 * a value of another type that converts exactly; a field with `@IsString` is never coerced. Nested
 * DTOs (`@ValidateNested` + `@Type`) and arrays validated `{each: true}` are coerced the same way.
 * UUIDs and dates are strings already. docs/decisions.md "DRF's input coercions".
 */
export function coerceLikeDrf(value: unknown): void {
  walk(value, new WeakSet(), 0);
}

type Kind = 'integer' | 'number' | 'boolean';

interface FieldKind {
  kind: Kind;
  /** The validator applies to each element of an array (`{each: true}`). */
  each: boolean;
}

const TRUE_VALUES = new Set<unknown>([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  1,
  true,
]);
const FALSE_VALUES = new Set<unknown>([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
  0,
  false,
]);

/** DRF `IntegerField`: `int(re.sub(r'\.0*\s*$', '', str(data)))`, strings of at most 1000 characters. */
const INTEGER = /^\s*[+-]?\d+(\.0*)?\s*$/;
/** DRF `FloatField`: `float(data)`, finite decimal notation only. */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const MAX_STRING_LENGTH = 1000;

/** Validators that make a field a string field: such a field is never coerced. */
const STRING_VALIDATORS = new Set(['isString', 'isNumberString', 'isUUID', 'isDateString', 'isISO8601']);
const NUMBER_VALIDATORS = new Set(['isNumber', 'min', 'max', 'isPositive', 'isNegative', 'isDivisibleBy']);

const kindsCache = new WeakMap<object, Map<string, FieldKind>>();

function kindsOf(target: object): Map<string, FieldKind> {
  const cached = kindsCache.get(target);
  if (cached) return cached;
  const byProperty = new Map<string, Array<{ name?: string; constraints?: unknown[]; each?: boolean }>>();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  for (const m of getMetadataStorage().getTargetValidationMetadatas(target as Function, '', true, false)) {
    const list = byProperty.get(m.propertyName) ?? [];
    list.push(m);
    byProperty.set(m.propertyName, list);
  }
  const out = new Map<string, FieldKind>();
  for (const [property, metas] of byProperty) {
    if (metas.some((m) => m.name && STRING_VALIDATORS.has(m.name))) continue;
    let found: FieldKind | null = null;
    for (const m of metas) {
      const kind = kindOfValidator(m);
      if (!kind) continue;
      // an integer rule is the stricter: keep it over a number rule on the same field
      if (!found || (kind === 'integer' && found.kind === 'number')) found = { kind, each: !!m.each };
    }
    if (found) out.set(property, found);
  }
  kindsCache.set(target, out);
  return out;
}

function kindOfValidator(m: { name?: string; constraints?: unknown[] }): Kind | null {
  if (m.name === 'isBoolean') return 'boolean';
  if (m.name === 'isInt') return 'integer';
  if (m.name && NUMBER_VALIDATORS.has(m.name)) return 'number';
  if (m.name === 'isIn' && Array.isArray(m.constraints?.[0])) {
    const allowed = m.constraints[0] as unknown[];
    if (!allowed.length || !allowed.every((v) => typeof v === 'number')) return null;
    return allowed.every((v) => Number.isInteger(v)) ? 'integer' : 'number';
  }
  return null;
}

function coerce(value: unknown, kind: Kind): unknown {
  if (kind === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    return value;
  }
  if (typeof value !== 'string' || value.length > MAX_STRING_LENGTH) return value;
  if (kind === 'integer') {
    if (!INTEGER.test(value)) return value;
    const n = Number(value.trim());
    return Number.isSafeInteger(n) ? n : value;
  }
  if (!DECIMAL.test(value)) return value;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : value;
}

function walk(value: unknown, seen: WeakSet<object>, depth: number): void {
  if (typeof value !== 'object' || value === null || depth > 32 || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) walk(item, seen, depth + 1);
    return;
  }
  const ctor = (value as object).constructor;
  if (typeof ctor === 'function' && ctor !== Object) {
    const record = value as Record<string, unknown>;
    for (const [property, { kind, each }] of kindsOf(ctor)) {
      if (!Object.prototype.hasOwnProperty.call(record, property)) continue;
      const current = record[property];
      if (each && Array.isArray(current)) record[property] = current.map((v) => coerce(v, kind));
      else record[property] = coerce(current, kind);
    }
  }
  for (const child of Object.values(value as object)) walk(child, seen, depth + 1);
}
