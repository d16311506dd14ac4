/** `%q%` for `ILIKE … ESCAPE '\'`, with `\`, `%` and `_` taken literally: "contains `q`". */
export function likeContaining(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
