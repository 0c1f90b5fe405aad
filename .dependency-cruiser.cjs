// The rules of docs/architecture.md (*Feature folders*): value imports between folders of src form no
// cycle, a feature folder of src/extension is entered only through its doors, src/core imports nothing
// outside itself, and the command line and the sandbox import nothing of src/extension. `npm run lint` runs
// them (`depcruise src`); `npx depcruise src --output-type dot` draws the graph they check.
// A feature's doors: index.ts (what activation and the eager code of other features use) and
// commands.ts (its commands, and what the on-demand code of other features uses of it; it is loaded
// with the first command, so what it re-exports stays out of dist/extension.js). onDemand/load.ts is
// the one door of the on-demand bundle, whose root (onDemand/index.ts) is left out below.
const DOORS = ['^src/extension/[^/]+/(index|commands)\\.ts$', '^src/extension/onDemand/load\\.ts$'];

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
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-cycle',
      comment:
        'A module imports a module that imports it, through any number of steps, type-only imports included. Let the feature declare the ' +
        'small interface it uses (its own type, or `Pick<…>` of a type that imports nothing back); docs/architecture.md, *Feature folders*.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'feature-door',
      comment:
        'A feature folder of src/extension imports, by value, a part of another feature: use what its index.ts (eager) or commands.ts ' +
        '(on demand) hands out, or add it there. Type imports are free. docs/architecture.md, *Feature folders*.',
      severity: 'error',
      from: { path: '^src/extension/([^/]+)/' },
      to: { path: '^src/extension/[^/]+/', pathNot: ['^src/extension/$1/', ...DOORS], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'feature-door-from-top',
      comment: 'A file of src/extension outside the feature folders (activate.ts and friends) imports a feature through its doors only.',
      severity: 'error',
      from: { path: '^src/extension/[^/]+\\.ts$' },
      to: { path: '^src/extension/[^/]+/', pathNot: DOORS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-stands-alone',
      comment:
        'src/core is shared by the extension, the command line and the sandbox, and imports none of them: move what it needs into src/core, ' +
        'or hand it in as a parameter. docs/architecture.md, *Feature folders*.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'no-extension-outside-it',
      comment:
        'The command line and the sandbox run without VS Code: they import nothing of src/extension. What both need belongs in src/core. ' +
        'docs/architecture.md, *Feature folders*.',
      severity: 'error',
      from: { path: '^src/(cli|sandbox)/' },
      to: { path: '^src/extension(/|\\.ts$)' },
    },
  ],
  options: {
    // Dependencies as the JavaScript TypeScript emits has them: a type-only import is no dependency at
    // run time, and it is not counted (a folder may name another's types both ways).
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: '^src/',
    // The entry of dist/on-demand.js is a bundle's root, like src/extension.ts: it imports every
    // on-demand feature, and eager code reaches it only through a type (src/extension/onDemand/load.ts).
    exclude: { path: ['\\.d\\.ts$', '^src/extension/onDemand/index\\.ts$'] },
  },
};
