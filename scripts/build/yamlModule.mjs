// The yaml package as an ES module in the extension's bundles and the command line's, so both faces
// read YAML with the same build of it (dist/browser.js too). For Node, the package hands out its
// CommonJS build, which esbuild can neither tree-shake nor hoist: every one of its modules is kept
// whole inside a wrapper, with its `exports` lines, and an import of yaml from a module whose exports
// are all unused still stays (a CommonJS `require` may have side effects), so that module counts as
// loaded at activation. Its ES module build (the one the package gives browsers, and dist/browser.js
// already uses) is the same code: 17 KB less in dist/extension.js and in dist/cli.js, whose deploy of
// 100 actions it also made about 40 ms quicker (docs/benchmarks.md). What differs is unused here: a
// warning goes to console.warn instead of process.emitWarning, the parser's debug logs read no
// environment variables, and YAML 1.1's `!!binary` (not in the default schema) decodes with atob.
import { createRequire } from 'node:module';
import path from 'node:path';

const esModule = path.join(path.dirname(createRequire(import.meta.url).resolve('yaml/package.json')), 'browser', 'index.js');

/** Resolves `yaml` to the package's ES module build. */
export const yamlEsModule = {
  name: 'yaml-es-module',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: esModule }));
  },
};
