// The extension's bundle for VS Code for the Web (dist/browser.js, package.json's `browser`): the same
// sources as dist/extension.js and dist/on-demand.js, in one bundle, for a browser's worker. What is
// Node-only has a browser twin beside it: a module `x.ts` with an `x.browser.ts` next to it is
// replaced by that twin in this bundle (the twin says what it leaves out and why). The check below
// fails the build when a Node module still reaches the bundle.
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

export const BROWSER_ENTRY = 'src/extension.browser.ts';

/** Resolves a relative import of `x` to `x.browser.ts` when that twin exists. */
export const browserTwins = {
  name: 'browser-twins',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      for (const candidate of [`${args.path}.browser.ts`, path.join(args.path, 'index.browser.ts')]) {
        const full = path.resolve(args.resolveDir, candidate);
        if (existsSync(full) && full !== args.importer) return { path: full };
      }
      return undefined;
    });
  },
};

/** esbuild options of the browser bundle, beside the Node one's. */
export function browserBundleOptions({ root, production, plugins = [] }) {
  return {
    absWorkingDir: root,
    entryPoints: { browser: path.join(root, BROWSER_ENTRY) },
    outdir: path.join(root, 'dist'),
    bundle: true,
    platform: 'browser',
    // VS Code's web worker extension host loads an extension as CommonJS, with `require('vscode')`.
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    minify: production,
    sourcemap: production ? 'external' : 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
    mainFields: ['browser', 'module', 'main'],
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
    plugins: [browserTwins, nodeCheck, ...plugins],
  };
}

/** Fails the build when a Node module reaches the browser bundle, naming each and what imported it. */
const nodeCheck = {
  name: 'no-node-in-browser',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      const found = nodeModulesIn(result.metafile);
      if (found.length > 0) throw new Error(`Node modules reached the browser bundle (give the importer a .browser.ts twin):\n  ${found.join('\n  ')}`);
    });
  },
};

/** Packages that are Node's or need it: none may be in the browser bundle. */
const NODE_ONLY = new Set(['undici', 'pg', 'pg-pool', 'pg-native', '@electric-sql/pglite', 'commander', 'chokidar', ...builtinModules]);

/**
 * What of the metafile's inputs and imports is Node's: a `node:` import, a builtin (`fs`, `path`),
 * or a Node-only package, as a list of "importer → module" lines; empty when the bundle is clean.
 */
export function nodeModulesIn(metafile) {
  const found = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    if (pkg && NODE_ONLY.has(pkg)) found.push(`${file} (package ${pkg})`);
    for (const imported of input.imports ?? []) {
      const name = imported.path.replace(/^node:/, '');
      if (imported.path.startsWith('node:') || NODE_ONLY.has(name) || NODE_ONLY.has(name.split('/')[0])) found.push(`${file} → ${imported.path}`);
    }
  }
  return [...new Set(found)];
}
