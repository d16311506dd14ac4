/** A source object as Plane's API answers it (the importer reads the fields it knows). */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the importer has made of the source's states, labels and estimate points so far: source id → Meridian id. */
export interface ImportedIds {
  states: Map<string, string>;
  labels: Map<string, string>;
  points: Map<string, string>;
}

/**
 * The fields of a Meridian work item for a Plane work item (Plane 0.25.3's v1 `IssueSerializer`
 * answer): the description (an empty paragraph when blank), priority and dates as they are; the
 * state, estimate point, labels and assignees through the ids already imported (`ids`, and `user`
 * for the source's user ids: null when the source did not list that person). A reference that was
 * not imported is dropped (state: the project's default; estimate point: none) rather than
 * failing the work item. Assignees and labels may come as ids or as objects with an `id`.
 */
export function issueFields(i: Json, ids: ImportedIds, user: (sourceId: unknown) => string | null) {
  return {
    description_html: i.description_html || '<p></p>',
    priority: i.priority,
    state: i.state ? (ids.states.get(i.state) ?? undefined) : undefined,
    estimate_point: i.estimate_point ? (ids.points.get(i.estimate_point) ?? null) : null,
    start_date: i.start_date ?? null,
    target_date: i.target_date ?? null,
    assignees: ((i.assignees ?? []) as unknown[])
      .map((a) => user(typeof a === 'string' ? a : (a as Json)?.id))
      .filter((a): a is string => !!a),
    labels: ((i.labels ?? []) as unknown[])
      .map((l) => ids.labels.get(typeof l === 'string' ? l : (l as Json)?.id))
      .filter((l): l is string => !!l),
  };
}
