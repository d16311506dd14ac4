import { createHash } from 'node:crypto';

/**
 * The comment a query builder puts first (`qb.comment(PLANNED_EACH_TIME)`, TypeORM writes it as
 * `/* planned-each-time *\/ ` at the text's start) on a statement whose best plan depends on its
 * values, so that it is never run as a named (prepared) statement: such a statement's generic plan,
 * chosen after five runs, would serve every value alike: the workspace list's filtered pages (a
 * common filter value and a rare one want different plans).
 */
export const PLANNED_EACH_TIME = 'planned-each-time';

/**
 * Names for SQL texts run as named (prepared) statements: one stable name per text (`prefix` and 20
 * hex digits of the text's SHA-1), for at most `max` distinct texts per process, none past that (the
 * text then runs unnamed: parsed and planned each time, kept nowhere). A named statement stays
 * prepared for the life of each connection, in `pg`'s client (`parsedStatements`) and in the
 * database session (on the embedded engine, in WebAssembly memory that never shrinks): hence the bound.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly prefix: string,
    readonly max: number,
  ) {}

  /** The name of `text`, or undefined once `max` texts have one. */
  of(text: string): string | undefined {
    let name = this.names.get(text);
    if (!name && this.names.size < this.max)
      this.names.set(text, (name = `${this.prefix}${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
    return name;
  }
}
