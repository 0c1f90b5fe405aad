// The command line's npm package, @custom-actions/cli, made from a built dist/ into dist/cli-package/:
// a package.json of its own (scoped, so `npx @custom-actions/cli` can only ever be this project's; no
// dependencies, since every bundle it holds has its own inlined) and the bundles the command line loads,
// never the extension's. The repository's package.json stays the extension's manifest (vsce reads it).
//
//   node scripts/build/cliPackage.mjs            # after npm run build: writes dist/cli-package/
//   node scripts/build/cliPackage.mjs --pack D   # and `npm pack`s it into folder D, printing the tarball's path
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const CLI_PACKAGE_NAME = '@custom-actions/cli';

/**
 * What the command line loads, relative to dist/: its launcher and its program; the analysis bundle, re2js and sucrase
 * on first need; the sandbox's runner, which runs the cases of `test` and the runs of `sandbox
 * start`; the sandbox with PGlite's files (the shipped database dump among them, so a first start runs
 * no initdb).
 */
export const CLI_BUNDLES = ['cli.js', 'cli-program.js', 'analysis.js', 're2js.js', 'sucrase.js', 'sandbox.js', 'sandbox-runner.js'];
const PGLITE_RUNTIME = ['index.cjs', 'pglite.wasm', 'pglite.data', 'initdb.wasm'];

/** The package's manifest: fields a registry and npm read, from the repository's own where they agree. */
export function cliManifest(repository) {
  return {
    name: CLI_PACKAGE_NAME,
    version: repository.version,
    description: 'custom-actions: check, test, deploy and pull the custom actions of your workflow applications from a terminal or a pipeline.',
    license: repository.license,
    repository: repository.repository,
    homepage: `${repository.repository.url.replace(/\.git$/, '')}/blob/main/docs/cli.md`,
    keywords: ['custom actions', 'workflow', 'deploy', 'cli'],
    engines: { node: repository.engines.node },
    bin: { 'custom-actions': 'dist/cli.js' },
    files: ['dist/'],
    type: 'commonjs',
  };
}

/** Writes the package's folder (dist/cli-package/) from dist/; fails naming any bundle the build did not make. */
export function makeCliPackage(dist = path.join(root, 'dist'), out = path.join(dist, 'cli-package')) {
  const pgliteDir = path.join(dist, 'pglite');
  const template = existsSync(pgliteDir) ? readdirSync(pgliteDir).filter((f) => f.startsWith('template-') && f.endsWith('.tar.gz')) : [];
  const files = [...CLI_BUNDLES, ...PGLITE_RUNTIME.map((f) => `pglite/${f}`), ...template.map((f) => `pglite/${f}`)];
  const missing = files.filter((f) => !existsSync(path.join(dist, f)));
  if (missing.length > 0) throw new Error(`cliPackage: not built (run npm run build first): ${missing.map((f) => `dist/${f}`).join(', ')}`);

  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'dist', 'pglite'), { recursive: true });
  for (const file of files) copyFileSync(path.join(dist, file), path.join(out, 'dist', file));
  const repository = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  writeFileSync(path.join(out, 'package.json'), JSON.stringify(cliManifest(repository), null, 2) + '\n');
  copyFileSync(path.join(root, 'scripts', 'build', 'cli-package-readme.md'), path.join(out, 'README.md'));
  copyFileSync(path.join(root, 'LICENSE'), path.join(out, 'LICENSE'));
  return out;
}

/** `npm pack`s the folder into `destination` and returns the tarball's path. */
export function packCliPackage(folder, destination) {
  mkdirSync(destination, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['pack', '--json', '--pack-destination', destination], {
    cwd: folder,
    encoding: 'utf8',
    env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) throw new Error(`npm pack failed: ${result.stderr}`);
  const [packed] = JSON.parse(result.stdout);
  return path.join(destination, packed.filename);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = makeCliPackage();
  const at = process.argv.indexOf('--pack');
  if (at > 0) console.log(packCliPackage(folder, path.resolve(process.argv[at + 1] ?? '.')));
  else console.log(folder);
}
