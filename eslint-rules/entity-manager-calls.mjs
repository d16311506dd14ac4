// @ts-check
/**
 * ESLint rule `meridian/entity-manager-calls`: outside a room's repository, no file of the domain
 * calls TypeORM's data access objects: a method of an `EntityManager`, a `DataSource`, a
 * `Repository` (and its tree and Mongo kinds) or a `QueryRunner` (`em.find`, `tx.save`,
 * `this.dataSource.manager.count`, `em.getRepository(X).findOne`, `manager.createQueryBuilder`…).
 * The check reads types, so it finds the call whatever the variable is called.
 *
 * Allowed everywhere: `transaction` (services own transactions and pass the transaction's manager
 * to repository methods) and the methods that build objects without a query (`create`, `merge`,
 * `hasId`, `getId`).
 *
 * A ratchet for the files not yet converted: `entity-manager-allowlist.json` beside this file maps
 * a file (path from the repository root) to the number of such calls it may still hold. A file not
 * listed may hold none; a listed file may not grow (every call is reported when it does), and a
 * listed file that has fewer calls than its entry is reported too, so the entry is lowered (or
 * removed at zero) in the same change and the list never goes stale.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ALLOWLIST_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'entity-manager-allowlist.json');

/** TypeORM's data access classes whose method calls are queries. */
const ACCESS_TYPES = new Set([
  'EntityManager',
  'DataSource',
  'Repository',
  'TreeRepository',
  'MongoRepository',
  'QueryRunner',
  'PostgresQueryRunner',
]);
/** Methods that send nothing to the database (or belong to the service: `transaction`). */
const ALLOWED_METHODS = new Set(['transaction', 'create', 'merge', 'hasId', 'getId']);

/** The allowlist in `file`: path from the lint's root → allowed calls (a small file, read per linted file). */
export function readAllowlist(file) {
  return /** @type {Record<string, number>} */ (
    Object.fromEntries(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8'))).filter(([k]) => !k.startsWith('$')))
  );
}

/** Whether `type` (or a member of its union) is one of TypeORM's access classes. */
function isAccessType(type) {
  if (type.isUnion()) return type.types.some(isAccessType);
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (!symbol || !ACCESS_TYPES.has(symbol.getName())) return false;
  return (symbol.getDeclarations() ?? []).some((d) => /[\\/]typeorm[\\/]/.test(d.getSourceFile().fileName));
}

/** @type {import('eslint').Rule.RuleModule} */
export const entityManagerCalls = {
  meta: {
    type: 'problem',
    docs: { description: 'Entity manager, data source and repository calls belong in the room repository.' },
    // `allowlist`: the ratchet file (default: the committed one); null counts every call (a fresh count)
    schema: [
      {
        type: 'object',
        properties: { allowlist: { type: ['string', 'null'] } },
        additionalProperties: false,
      },
    ],
    messages: {
      call: "'{{method}}' on a TypeORM {{type}}: queries belong in the room's repository (*.repository.ts); the service passes its transaction's manager to a repository method.",
      grown:
        "'{{method}}' on a TypeORM {{type}}: this file has {{count}} entity-manager calls, eslint-rules/entity-manager-allowlist.json allows {{allowed}}; move queries into the repository instead.",
      stale:
        'This file has {{count}} entity-manager calls, eslint-rules/entity-manager-allowlist.json still allows {{allowed}}: lower its entry to {{count}}{{remove}}.',
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program || !services.esTreeNodeToTSNodeMap) return {};
    const checker = services.program.getTypeChecker();
    const option = context.options[0]?.allowlist;
    const list = option === null ? {} : readAllowlist(path.resolve(context.cwd, option ?? ALLOWLIST_FILE));
    const relative = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    /** @type {Array<{ node: import('estree').Node, method: string, type: string }>} */
    const calls = [];
    /** Calls already counted: `em.getRepository(X).findOne(…)` is one call site, not two. */
    const counted = new WeakSet();
    return {
      /** @param {import('estree').CallExpression} node (on exit: an inner call of a chain comes first) */
      'CallExpression:exit'(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.object.type === 'Super') return;
        if (counted.has(callee.object)) return;
        const method =
          callee.property.type === 'Identifier' && !callee.computed
            ? callee.property.name
            : callee.property.type === 'Literal'
              ? String(callee.property.value)
              : '';
        if (ALLOWED_METHODS.has(method)) return;
        const tsNode = services.esTreeNodeToTSNodeMap.get(callee.object);
        const type = checker.getTypeAtLocation(tsNode);
        if (!isAccessType(type)) return;
        const name = (type.isUnion() ? type.types.find(isAccessType) : type)?.getSymbol()?.getName() ?? 'object';
        counted.add(node);
        calls.push({ node, method, type: name });
      },
      'Program:exit'(program) {
        const limit = list[relative] ?? 0;
        if (calls.length > limit) {
          for (const c of calls)
            context.report({
              node: c.node,
              messageId: limit ? 'grown' : 'call',
              data: { method: c.method, type: c.type, count: String(calls.length), allowed: String(limit) },
            });
        } else if (calls.length < limit) {
          context.report({
            node: program,
            messageId: 'stale',
            data: {
              count: String(calls.length),
              allowed: String(limit),
              remove: calls.length ? '' : ' (remove it)',
            },
          });
        }
      },
    };
  },
};

export default { rules: { 'entity-manager-calls': entityManagerCalls } };
