import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type * as Browser from '../../scripts/build/browserBundle.mjs';

const root = path.resolve(__dirname, '../..');

/**
 * dist/browser.js, the extension in VS Code for the Web: built from the same sources, it holds no Node
 * module (a `node:` import, a builtin, undici, pg, PGlite…): each Node-only module has a .browser.ts
 * twin. The check that fails the build is proved here to catch one that slips in.
 */
describe('build: the browser bundle holds no Node module', () => {
  let browser: typeof Browser;
  let out: string;

  before(async () => {
    browser = await import('../../scripts/build/browserBundle.mjs');
    out = mkdtempSync(path.join(tmpdir(), 'browser-bundle-'));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('builds dist/browser.js from the extension’s sources with nothing of Node in it', async function () {
    this.timeout(120_000);
    const result = await esbuild.build({ ...browser.browserBundleOptions({ root, production: false }), outdir: out, logLevel: 'silent' });
    assert.deepEqual(browser.nodeModulesIn(result.metafile!), []);
    const inputs = Object.keys(result.metafile!.inputs);
    // The twins stood in: the fetch transport and no undici, no child process for the sandbox.
    assert.ok(inputs.includes('src/core/client/fetchTransport.ts'));
    assert.ok(inputs.includes('src/extension/sandboxManager.browser.ts'));
    assert.ok(!inputs.includes('src/extension/sandboxManager.ts'));
    assert.ok(!inputs.includes('src/core/client/nodeTransport.ts'));
  });

  it('fails the build, naming the module and its importer, when a Node module reaches it', async function () {
    this.timeout(60_000);
    const src = path.join(out, 'src');
    mkdirSync(src, { recursive: true });
    writeFileSync(path.join(src, 'entry.ts'), "import { x } from './uses';\nexport const y = x;\n");
    writeFileSync(path.join(src, 'uses.ts'), "import { readFileSync } from 'node:fs';\nimport 'undici';\nexport const x = readFileSync;\n");
    const options = browser.browserBundleOptions({ root, production: false });
    const error = await esbuild
      .build({
        ...options,
        entryPoints: { entry: path.join(src, 'entry.ts') },
        outdir: path.join(out, 'bad'),
        logLevel: 'silent',
        external: ['vscode', 'node:fs', 'undici'],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(error instanceof Error, 'the build passed');
    assert.match(error.message, /Node modules reached the browser bundle/);
    assert.match(error.message, /uses\.ts → node:fs/);
    assert.match(error.message, /uses\.ts → undici/);
  });

  it('a twin stands in for its module: twin and module export the same names', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const twins: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.browser.ts') && entry.name !== 'extension.browser.ts') twins.push(full);
      }
    };
    walk(path.join(root, 'src'));
    assert.ok(twins.length >= 6, twins.join(', '));
    const exported = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/^export (?:const|function|class|type|interface|async function) (\w+)|^export (?:type )?\{([^}]+)\}/gm)]
        .flatMap((m) =>
          m[1]
            ? [m[1]]
            : m[2]!.split(',').map((n) =>
                n
                  .trim()
                  .replace(/^type /, '')
                  .split(' as ')
                  .pop()!
                  .trim(),
              ),
        )
        .filter(Boolean)
        .sort();
    for (const twin of twins) {
      const original = twin.replace(/\.browser\.ts$/, '.ts');
      const missing = exported(original).filter((name) => !exported(twin).includes(name));
      assert.deepEqual(missing, [], `${path.relative(root, twin)} lacks what ${path.relative(root, original)} exports`);
    }
  });
});
