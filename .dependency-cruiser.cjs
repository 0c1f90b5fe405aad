// The folder-level rule of docs/architecture.md (*Feature folders*): value imports between folders of
// src form no cycle. `npm run lint` runs it (`depcruise src`); `npx depcruise src --output-type dot`
// draws the graph it checks.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment:
        'A folder imports, by value, from a folder that imports from it, through any number of steps. Move what both need into a folder ' +
        'of its own, or make one side take it as a type (`import { type X }`) and be handed the value; docs/architecture.md says which.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    // Dependencies as the JavaScript TypeScript emits has them: a type-only import is no dependency at
    // run time, and it is not counted (a folder may name another's types both ways).
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: '^src/',
    // The entry of dist/on-demand.js is a bundle's root, like src/extension.ts: it imports every
    // on-demand feature, and eager code reaches it only through a type (src/extension/onDemand/load.ts).
    exclude: { path: ['\\.d\\.ts$', '^src/extension/onDemand/index\\.ts$'] },
  },
};
