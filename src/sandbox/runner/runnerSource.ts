import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { buildSync } from 'esbuild';

let cached: string | undefined;

/**
 * The runner process's code, as one text: dist/sandbox-runner.js beside the sandbox bundle, or, when
 * the sandbox runs from source (tests, tsx), child/index.ts bundled here by the same bundler that
 * makes that file, so both run the same code.
 */
export function runnerSource(): string {
  if (cached !== undefined) return cached;
  const bundled = path.join(__dirname, 'sandbox-runner.js');
  if (existsSync(bundled)) return (cached = readFileSync(bundled, 'utf8'));
  const entry = path.join(__dirname, 'child', 'index.ts');
  if (!existsSync(entry)) throw new Error(`the runner is missing: neither ${bundled} nor ${entry} exists`);
  // esbuild is a development dependency: required this way, the sandbox's bundle leaves it out.
  const esbuild = createRequire(__filename)('esbuild') as { buildSync: typeof buildSync };
  const result = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent' });
  return (cached = result.outputFiles[0]!.text);
}
