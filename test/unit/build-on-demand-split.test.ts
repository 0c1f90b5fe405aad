import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type * as Split from '../../scripts/build/onDemandSplit.mjs';

/**
 * The split of the extension into dist/extension.js and dist/on-demand.js, on a small project of the
 * same shape: state, classes and errors in modules activation loads, a lazily loaded part that uses
 * them, and a module only the lazy part needs.
 */
describe('build: the extension bundle and its on-demand bundle', () => {
  let root: string;
  let dist: string;
  let split: typeof Split;

  const files: Record<string, string> = {
    'src/shared.ts': `
      export class ApiError extends Error {}
      let count = 0;
      export const bump = () => ++count;
      export const usedOnlyLater = () => 'only the on-demand bundle calls this';
      export const neverUsed = () => 'NEVER_USED_MARKER';`,
    'src/core/index.ts': `export * from './parts';`,
    'src/core/parts.ts': `export const part = () => 'part'; export const unusedPart = () => 'UNUSED_PART_MARKER';`,
    // A package's CommonJS module, which declares no names of its own.
    'src/legacy.js': `let calls = 0; module.exports = { call: () => ++calls };`,
    'src/lazyOnly.ts': `export const lazyOnly = () => 'LAZY_ONLY_MARKER';`,
    'src/main.ts': `
      import { ApiError, bump } from './shared';
      import { part } from './core';
      import legacy from './legacy.js';
      export function activate() { bump(); legacy.call(); return part(); }
      export function isApiError(e: unknown) { return e instanceof ApiError; }
      import * as path from 'node:path';
      export function load() { return require(path.join(__dirname, 'on-demand.js')); }`,
    'src/lazy.ts': `
      import { ApiError, bump, usedOnlyLater } from './shared';
      import { part } from './core';
      import { lazyOnly } from './lazyOnly';
      import { call } from './legacy.js';
      export const legacyCalls = () => call();
      export const fail = () => { throw new ApiError('from the lazy part'); };
      export const count = () => bump();
      export const both = () => [usedOnlyLater(), lazyOnly(), part()];`,
  };

  before(async () => {
    split = await import('../../scripts/build/onDemandSplit.mjs');
    root = mkdtempSync(path.join(tmpdir(), 'on-demand-split-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    dist = path.join(root, 'dist');
    await split.buildSplit(esbuild, {
      root,
      common: { bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent' },
      main: { entry: 'src/main.ts', outfile: path.join(dist, 'extension.js'), plugins: [] },
      onDemand: { entry: 'src/lazy.ts', outfile: path.join(dist, 'on-demand.js'), plugins: [] },
    });
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('keeps one copy of a shared module: its state and its classes are the same in both bundles', () => {
    const main = createRequire(__filename)(path.join(dist, 'extension.js')) as {
      activate(): string;
      isApiError(e: unknown): boolean;
      load(): { fail(): never; count(): number; both(): string[]; legacyCalls(): number };
    };
    assert.equal(main.activate(), 'part');
    const lazy = main.load();
    assert.equal(lazy.count(), 2, 'the counter bumped at activation is the one the lazy part bumps');
    assert.equal(lazy.legacyCalls(), 2, 'a CommonJS module is shared whole');
    assert.throws(
      () => lazy.fail(),
      (error) => main.isApiError(error),
      'an error class of the lazy part is the class activation checks with instanceof',
    );
    assert.deepEqual(lazy.both(), ['only the on-demand bundle calls this', 'LAZY_ONLY_MARKER', 'part']);
  });

  it('puts what only the lazy part needs in on-demand.js, and nothing twice', () => {
    const main = readFileSync(path.join(dist, 'extension.js'), 'utf8');
    const lazy = readFileSync(path.join(dist, 'on-demand.js'), 'utf8');
    assert.ok(lazy.includes('LAZY_ONLY_MARKER') && !main.includes('LAZY_ONLY_MARKER'), 'a module only the lazy part imports');
    assert.ok(!lazy.includes('class ApiError'), 'the shared class is not bundled again');
    assert.ok(!lazy.includes('count = 0'), 'the shared state is not bundled again');
    assert.ok(!main.includes('NEVER_USED_MARKER'), 'a name neither bundle uses is shaken out of both');
    assert.ok(!main.includes('UNUSED_PART_MARKER') && !lazy.includes('UNUSED_PART_MARKER'), 'a barrel hands out only what is used');
  });
});
