// No import cycles at run time, checked by `npm run deps` beside .dependency-cruiser.cjs. Type-only
// imports are erased by the compiler, so this cruise leaves them out (tsPreCompilationDeps: false)
// and flags the cycles Node.js really loads: a cycle through a feature door hands a class its
// injected classes before they exist. Break one with a change event (libs/domain/src/kernel/change-bus.ts)
// or by moving the code to the feature that owns it.
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [{ name: 'no-circular', severity: 'error', from: { path: '^(apps|libs)/' }, to: { circular: true } }],
  options: { ...base.options, tsPreCompilationDeps: false },
};
