import { MeridianError } from '#common';

/**
 * Plane's `fields=` and `expand=` query parameters (Plane `plane/api/serializers/base.py`
 * BaseSerializer): both are comma-separated lists. `fields` keeps only the named top-level keys
 * (unknown names ignored); `expand` replaces ids by nested objects for the keys a resource knows how
 * to expand.
 */
export interface Shape {
  fields?: string[];
  expand: Set<string>;
}

function list(raw: unknown, name: string): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} was given more than once.`);
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function parseShape(query: Record<string, unknown>): Shape {
  return { fields: list(query.fields, 'fields'), expand: new Set(list(query.expand, 'expand') ?? []) };
}

/** `fields=`: keeps only the listed keys (an unknown name is ignored; no match gives `{}`). */
export function pick<T extends Record<string, unknown>>(obj: T, fields?: string[]): Partial<T> {
  if (!fields) return obj;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in obj) out[f] = obj[f];
  return out as Partial<T>;
}
