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
 * `hasId`, `getId`). Every other call is reported, in every file the rule is given (no file is
 * exempt: `eslint.config.mjs` leaves out only the repositories and the kernel).
 */

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
    schema: [],
    messages: {
      call: "'{{method}}' on a TypeORM {{type}}: queries belong in the room's repository (*.repository.ts); the service passes its transaction's manager to a repository method.",
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program || !services.esTreeNodeToTSNodeMap) return {};
    const checker = services.program.getTypeChecker();
    /** Calls already reported: `em.getRepository(X).findOne(…)` is one call site, not two. */
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
        context.report({ node, messageId: 'call', data: { method, type: name } });
      },
    };
  },
};

export default { rules: { 'entity-manager-calls': entityManagerCalls } };
