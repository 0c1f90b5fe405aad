import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type * as Split from '../../scripts/build/onDemandSplit.mjs';
import type * as Modules from '../../scripts/build/onDemandModules.mjs';

/**
 * The extension's own split: no module that belongs to dist/on-demand.js (scripts/build/onDemandModules.mjs)
 * is bundled into dist/extension.js, where activation would load it.
 */
describe('build: what belongs to on-demand.js stays out of extension.js', () => {
  let modules: typeof Modules;
  let metafiles: Awaited<ReturnType<typeof Split.buildSplit>>;
  let out: string;

  before(async function () {
    // One build of the pair as esbuild.mjs makes it (not minified): about 2 s on a quiet machine.
    this.timeout(120_000);
    const split = await import('../../scripts/build/onDemandSplit.mjs');
    modules = await import('../../scripts/build/onDemandModules.mjs');
    const { yamlEsModule } = await import('../../scripts/build/yamlModule.mjs');
    out = mkdtempSync(path.join(tmpdir(), 'on-demand-modules-'));
    const undiciApart = {
      name: 'undici-apart',
      setup: (b: esbuild.PluginBuild) => b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true })),
    };
    metafiles = await split.buildSplit(esbuild, {
      root: path.resolve(__dirname, '../..'),
      common: { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent', external: ['vscode'] },
      main: { entry: modules.EXTENSION_ENTRY, outfile: path.join(out, 'extension.js'), plugins: [undiciApart, yamlEsModule] },
      onDemand: { entry: modules.ON_DEMAND_ENTRY, outfile: path.join(out, 'on-demand.js'), plugins: [undiciApart, yamlEsModule] },
    });
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  it('puts no on-demand module into extension.js', () => {
    assert.deepEqual(
      modules.onDemandModulesInExtension(metafiles),
      [],
      'these modules of on-demand.js are bundled into extension.js: an import from eager code brought them there (make it a type import and reach them through onDemand(s))',
    );
  });

  it('finds in on-demand.js every listed module that is still there, so the list is not checked in vain', () => {
    const own = new Set(Object.keys(metafiles.onDemand.inputs));
    const root = path.resolve(__dirname, '../..');
    const missing = modules.ON_DEMAND_MODULES.filter((d) => !d.endsWith('/') && existsSync(path.join(root, d)) && !own.has(d));
    assert.deepEqual(missing, [], 'these listed modules are bundled nowhere, or into extension.js');
  });

  it('bundles no module into both, so that each has one copy of its state and its classes', () => {
    const bundled = (metafile: esbuild.Metafile) =>
      Object.values(metafile.outputs).flatMap((o) => Object.entries(o.inputs).flatMap(([file, { bytesInOutput }]) => (bytesInOutput > 0 ? [file] : [])));
    const eager = new Set(bundled(metafiles.final));
    assert.deepEqual(
      bundled(metafiles.onDemand).filter((file) => eager.has(file)),
      [],
      'these modules are in both bundles: extension.js keeps them only for what on-demand.js reads of a module beside them (move that part of the module out of the one activation loads)',
    );
  });

  it("bundles yaml's ES module build, which esbuild can shake, not its CommonJS one", () => {
    const inputs = [metafiles.final, metafiles.onDemand].flatMap((m) => Object.keys(m.inputs));
    assert.deepEqual(
      inputs.filter((f) => f.startsWith('node_modules/yaml/dist/')),
      [],
      "yaml's CommonJS build is bundled: an esbuild config of the pair lacks scripts/build/yamlModule.mjs",
    );
    assert.ok(
      inputs.some((f) => f.startsWith('node_modules/yaml/browser/dist/')),
      'yaml is no longer bundled: drop scripts/build/yamlModule.mjs',
    );
  });

  it('notices a listed module, or a module the entry imports, in extension.js', () => {
    const meta = (eager: string[]) => ({
      final: { outputs: { 'extension.js': { inputs: Object.fromEntries(eager.map((f) => [f, {}])) } } },
      onDemand: { inputs: { [modules.ON_DEMAND_ENTRY]: { imports: [{ path: 'on-demand-host:src/extension/fresh.ts' }] } } },
    });
    assert.deepEqual(modules.onDemandModulesInExtension(meta(['src/extension/activate.ts', 'src/extension/handlers/table.ts'])), [
      'src/extension/handlers/table.ts',
    ]);
    assert.deepEqual(modules.onDemandModulesInExtension(meta(['src/extension/fresh.ts'])), ['src/extension/fresh.ts']);
  });
});
