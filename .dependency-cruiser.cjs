// The rules of docs/architecture.md (*Feature folders*): imports, type-only ones included, form no cycle
// between modules nor between folders of src, a feature folder of src/extension is entered by value only through its doors, src/core imports nothing
// outside itself, and the command line and the sandbox import nothing of src/extension. `npm run lint` runs
// them (`depcruise src`); `npx depcruise src --output-type dot` draws the graph they check.
// A feature's doors: index.ts (what activation and the eager code of other features use) and
// commands.ts (its commands, and what the on-demand code of other features uses of it; it is loaded
// with the first command, so what it re-exports stays out of dist/extension.js). loadOnDemand.ts is
// the one door of the on-demand bundle.
const DOORS = ['^src/extension/[^/]+/(index|commands)\\.ts$', '^src/extension/loadOnDemand\\.ts$'];
// The entry of dist/on-demand.js: a bundle's root, like src/extension.ts, that imports every on-demand feature's parts.
const ON_DEMAND_ROOT = '^src/extension/onDemand/index\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment:
        'A folder imports (a type included) from a folder that imports from it, through any number of steps. Move what both need into a ' +
        'folder of its own, or let one side declare the small type it uses and be handed the value; docs/architecture.md says which.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
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
      from: { path: '^src/extension/([^/]+)/', pathNot: ON_DEMAND_ROOT },
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
    // Dependencies as written, type-only imports included (marked `type-only`): a cycle of types is a
    // cycle of knowledge all the same. The door rules look at value imports only (types are free).
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: '^src/',
    // The entry of dist/on-demand.js (onDemand/index.ts) is cruised like every module: eager code reaches
    // it only through loadOnDemand.ts, whose callers each name what they take, so no import leads back.
    exclude: { path: ['\\.d\\.ts$'] },
  },
};
