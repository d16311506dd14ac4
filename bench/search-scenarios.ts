/**
 * The searches `search.bench.ts` loads and `search-statements.ts` times inside PostgreSQL: Plane's
 * workspace search, the mention picker (`entity-search/`, work items), the link picker
 * (`search-issues/`, the whole workspace) and v1 `work-items/search/`, each for the texts given.
 */

/** The texts searched: `[what, text]`. */
export type SearchTexts = Array<[string, string]>;

/** The texts of a run: a rare word, an inner substring of it, a common word, a key, a bare number, one letter, empty. */
export function searchTexts(t: {
  rare: string;
  substring: string;
  common: string;
  key: string;
  number: number;
  short: string;
}): SearchTexts {
  return [
    ['rare word', t.rare],
    ['inner substring', t.substring],
    ['common word', t.common],
    ['key', t.key],
    ['number', String(t.number)],
    ['one letter', t.short],
    ['empty', ''],
  ];
}

/** One search request: its name, path and which credentials it takes (`app`: Bearer, `v1`: API key). */
export interface SearchRequest {
  name: string;
  path: string;
  auth: 'app' | 'v1';
}

/** The four searches for each text, in workspace `slug`, the picker from project `projectId`. */
export function searchRequests(slug: string, projectId: string, texts: SearchTexts): SearchRequest[] {
  const ws = `/api/workspaces/${slug}`;
  return texts.flatMap(([what, q]) => {
    const e = encodeURIComponent(q);
    return [
      { name: `search/ (${what})`, path: `${ws}/search/?search=${e}`, auth: 'app' as const },
      {
        name: `entity-search/ issue (${what})`,
        path: `${ws}/entity-search/?query_type=issue&count=10&query=${e}`,
        auth: 'app' as const,
      },
      {
        name: `search-issues/ workspace (${what})`,
        path: `${ws}/projects/${projectId}/search-issues/?workspace_search=true&search=${e}`,
        auth: 'app' as const,
      },
      {
        name: `v1 work-items/search/ (${what})`,
        path: `/api/v1/workspaces/${slug}/work-items/search/?search=${e}`,
        auth: 'v1' as const,
      },
    ];
  });
}
