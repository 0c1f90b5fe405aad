// One build script, several contexts: the extension host bundle (kept small: activation loads only it),
// the lazily loaded analysis bundle (it carries the TypeScript compiler), the sandbox and the code of
// its runner processes, the command line, the webview scripts, and the extension-host test suites.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { EXTENSION_ENTRY, ON_DEMAND_ENTRY } from './scripts/build/onDemandModules.mjs';
import { buildSplit } from './scripts/build/onDemandSplit.mjs';
import { browserBundleOptions } from './scripts/build/browserBundle.mjs';
import { yamlEsModule } from './scripts/build/yamlModule.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const withTests = !production || process.argv.includes('--tests');
const root = path.dirname(new URL(import.meta.url).pathname);
const at = (p) => path.join(root, p);

/** Reports build errors in the form VS Code's esbuild problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: production ? 'external' : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [problemMatcher],
};

/**
 * undici is half a megabyte minified: the extension bundle loads it from its own file on the first
 * request instead of at activation. The client requires it lazily, inside the function that needs it.
 * re2js (150 KB, the linear-time engine of input sets' error patterns) likewise, on the first pattern,
 * and sucrase (290 KB, the type-stripping of a local run or debug session) on the first compile.
 */
const undiciOnDemand = {
  name: 'undici-on-demand',
  setup(build) {
    build.onResolve({ filter: /^(undici|re2js|sucrase)$/ }, (args) => ({ path: `./${args.path}.js`, external: true }));
  },
};

/**
 * Every start of the command line parses its whole bundle: undici is taken as its Pool alone
 * (src/cli/undiciPool.ts), re2js, needed only by input sets' error patterns, from dist/re2js.js
 * on the first pattern, as the extension does, and sucrase, needed only to run code on the local
 * harness, from dist/sucrase.js on the first compile (src/sandbox/runner/sucrase.ts).
 */
const cliOnDemand = {
  name: 'cli-on-demand',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: at('src/cli/undiciPool.ts') }));
    build.onResolve({ filter: /^(re2js|sucrase)$/ }, (args) => ({ path: `./${args.path}.js`, external: true }));
  },
};

/** `virtual:host-test-suites`: a loader per test/host/suite/*.test.ts, so no suite can be left unregistered. */
const hostTestSuites = {
  name: 'host-test-suites',
  setup(build) {
    const suiteDir = at('test/host/suite');
    build.onResolve({ filter: /^virtual:host-test-suites$/ }, () => ({ path: 'host-test-suites', namespace: 'host-test-suites' }));
    build.onLoad({ filter: /.*/, namespace: 'host-test-suites' }, () => {
      const files = existsSync(suiteDir)
        ? readdirSync(suiteDir)
            .filter((f) => f.endsWith('.test.ts'))
            .sort()
        : [];
      const loaders = files.map((f) => `  () => require(${JSON.stringify('./' + f)}),`).join('\n');
      return { contents: `exports.suites = [\n${loaders}\n];\n`, resolveDir: suiteDir, loader: 'js', watchDirs: [suiteDir] };
    });
  },
};

/**
 * PGlite loads its WebAssembly and data files from beside its own module. The sandbox bundle requires
 * it from dist/pglite/, where the build copies the package's runtime files, so the .vsix needs no
 * node_modules.
 */
const PGLITE_FILES = ['index.cjs', 'pglite.wasm', 'pglite.data', 'initdb.wasm'];
const PGLITE_VERSION = JSON.parse(readFileSync(at('node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
const PACKAGE_VERSION = JSON.parse(readFileSync(at('package.json'), 'utf8')).version;
const pgliteBesideBundle = {
  name: 'pglite-beside-bundle',
  setup(build) {
    build.onResolve({ filter: /^@electric-sql\/pglite$/ }, () => ({ path: './pglite/index.cjs', external: true }));
    build.onEnd(() => {
      const from = path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
      mkdirSync(at('dist/pglite'), { recursive: true });
      for (const file of PGLITE_FILES) copyFileSync(path.join(from, file), at(`dist/pglite/${file}`));
    });
  },
};

/** Entry points by name; one that does not exist fails the build rather than leaving its bundle out. */
const existing = (entries) => {
  const missing = Object.values(entries).filter((file) => !existsSync(at(file)));
  if (missing.length > 0) throw new Error(`esbuild.mjs: entry point(s) not found: ${missing.join(', ')}`);
  return entries;
};
const existingFile = (file) => ({ entry: Object.values(existing({ file }))[0] });

/** dist/extension.js and dist/on-demand.js, every module in one of them only (scripts/build/onDemandSplit.mjs). */
const extensionPair = {
  root,
  common: { ...node, plugins: undefined, external: ['vscode'] },
  main: { ...existingFile(EXTENSION_ENTRY), outfile: at('dist/extension.js'), plugins: [problemMatcher, undiciOnDemand, yamlEsModule] },
  onDemand: { ...existingFile(ON_DEMAND_ENTRY), outfile: at('dist/on-demand.js'), plugins: [problemMatcher, undiciOnDemand, yamlEsModule] },
};

const configs = [
  {
    ...node,
    entryPoints: { undici: 'node_modules/undici/index.js', re2js: 'node_modules/re2js/build/index.cjs', sucrase: 'node_modules/sucrase/dist/index.js' },
    outdir: at('dist'),
  },
  { ...node, entryPoints: existing({ analysis: 'src/core/analysis/index.ts' }), outdir: at('dist') },
  {
    ...node,
    entryPoints: existing({
      sandbox: 'src/sandbox/cli.ts',
      'sandbox-runner': 'src/sandbox/runner/child/index.ts',
      'run-local': 'src/sandbox/runner/local/harness.ts',
    }),
    outdir: at('dist'),
    // pg (the PostgreSQL backend) requires pg-native only when asked for its native bindings, and
    // pg-cloudflare only on Cloudflare Workers: neither is installed, and neither is reached here.
    external: ['pg-native', 'pg-cloudflare', 'cloudflare:sockets'],
    plugins: [problemMatcher, pgliteBesideBundle],
    define: { __PGLITE_VERSION__: JSON.stringify(PGLITE_VERSION) },
  },
  // The command line (the package's `bin`, dist/cli.js): a launcher of a few KB that loads the program
  // through its code cache (src/cli/main.ts).
  { ...node, entryPoints: existing({ cli: 'src/cli/main.ts' }), outdir: at('dist'), banner: { js: '#!/usr/bin/env node' } },
  // Its program: everything it needs bundled in, undici's Pool and the argument parser included, so the
  // installed package runs with nothing else; the analysis bundle and re2js beside it are required on
  // first need (cliOnDemand); yaml as the extension takes it (yamlModule.mjs).
  {
    ...node,
    entryPoints: existing({ 'cli-program': 'src/cli/programMain.ts' }),
    outdir: at('dist'),
    define: { __CLI_VERSION__: JSON.stringify(PACKAGE_VERSION) },
    plugins: [problemMatcher, cliOnDemand, yamlEsModule],
  },
  // dist/browser.js, package.json's `browser`: the extension in VS Code for the Web, one bundle from the
  // same sources, Node-only modules replaced by their .browser.ts twins (scripts/build/browserBundle.mjs).
  { ...browserBundleOptions({ root, production }), plugins: [...browserBundleOptions({ root, production }).plugins, problemMatcher] },
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    sourcemap: production ? false : 'linked',
    logLevel: 'warning',
    plugins: [problemMatcher],
    entryPoints: existing({ form: 'media/form/main.ts' }),
    outdir: at('dist/webview'),
    loader: { '.css': 'text' },
  },
];
if (withTests) {
  configs.push({
    ...node,
    minify: false,
    sourcemap: 'inline',
    entryPoints: existing({ index: 'test/host/index.ts' }),
    outdir: at('out/test/host'),
    // mocha stays a package: the bundle finds it in the repository's node_modules at run time.
    external: ['vscode', 'mocha'],
    plugins: [problemMatcher, hostTestSuites],
  });
  // The benchmarks' extension-host payload (npm run bench), loaded by VS Code like the tests'.
  configs.push({
    ...node,
    minify: false,
    sourcemap: 'inline',
    entryPoints: existing({ index: 'bench/host/index.ts' }),
    outdir: at('out/bench/host'),
    external: ['vscode'],
  });
}

await generateSchemas();
const contexts = await Promise.all(configs.filter((c) => Object.keys(c.entryPoints).length > 0).map((c) => esbuild.context(c)));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  await watchExtensionPair();
} else {
  await Promise.all([...contexts.map((c) => c.rebuild()), buildSplit(esbuild, extensionPair)]);
  await Promise.all(contexts.map((c) => c.dispose()));
  if (production) await shipSandboxTemplate();
}

/**
 * The pair is built in three steps that no esbuild context expresses, so in watch mode two contexts
 * only watch the files of each bundle and any change builds the pair again.
 */
async function watchExtensionPair() {
  let building = Promise.resolve();
  const rebuild = () => {
    building = building.then(() => buildSplit(esbuild, extensionPair).catch(() => undefined));
  };
  const onChange = { name: 'rebuild-pair', setup: (build) => build.onEnd(rebuild) };
  for (const { entry } of [extensionPair.main, extensionPair.onDemand]) {
    const context = await esbuild.context({
      ...extensionPair.common,
      absWorkingDir: root,
      entryPoints: [at(entry)],
      write: false,
      sourcemap: false,
      plugins: [undiciOnDemand, yamlEsModule, onChange],
    });
    await context.watch();
  }
}

/**
 * The packaged sandbox ships the dump of a new database with its schema (4–5 MB gzipped), so that a
 * new user's first Start Local Sandbox loads it instead of running initdb (seconds: docs/benchmarks.md).
 * Made once per schema and PGlite version: the name says both, and an older one is removed.
 */
async function shipSandboxTemplate() {
  const database = await loadModule('src/sandbox/store/database.ts', { external: ['@electric-sql/pglite'] });
  const name = database.shippedTemplateName(PGLITE_VERSION);
  const dir = at('dist/pglite');
  for (const old of readdirSync(dir).filter((f) => f.startsWith('template-') && f !== name)) rmSync(path.join(dir, old));
  if (existsSync(path.join(dir, name))) return;
  const dump = await database.createTemplateDump();
  writeFileSync(path.join(dir, `${name}.partial`), gzipSync(dump, { level: 9 }));
  renameSync(path.join(dir, `${name}.partial`), path.join(dir, name));
}

/**
 * The JSON Schemas of action.yaml and customactions.yaml come from the one metadata schema of src/core;
 * the input sets' (inputs/*.json) from the file format's own module.
 */
async function generateSchemas() {
  const metadata = await loadModule('src/core/schema/jsonSchema.ts');
  const testing = await loadModule('src/core/testing/inputSetFile.ts');
  mkdirSync(at('dist'), { recursive: true });
  writeFileSync(at('dist/action.schema.json'), JSON.stringify(metadata.actionJsonSchema(), null, 2) + '\n');
  writeFileSync(at('dist/project.schema.json'), JSON.stringify(metadata.projectJsonSchema(), null, 2) + '\n');
  writeFileSync(at('dist/input-set.schema.json'), JSON.stringify(testing.INPUT_SET_JSON_SCHEMA, null, 2) + '\n');
}

/** A module of src/core, bundled and evaluated here. */
async function loadModule(file, options = {}) {
  const result = await esbuild.build({
    ...options,
    entryPoints: [at(file)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  const require = createRequire(at('esbuild.mjs'));
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(module, module.exports, require);
  return module.exports;
}
