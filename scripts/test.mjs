// `npm test`: every check CI runs, in order, stopping at the first failure. Assumes installed
// dependencies (CI runs `npm ci` first). `npm test -- host ui` runs only the stages named.
// The last line counts the stages.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stages = [
  ...(existsSync(path.join(root, 'scripts', 'check-commands.mjs')) ? [['commands', ['run', 'check:commands']]] : []),
  ['lint', ['run', 'lint']],
  ['typecheck', ['run', 'typecheck']],
  ['unit', ['run', 'test:unit']],
  ...(existsSync(path.join(root, 'test', 'sandbox', '.mocharc.json')) ? [['sandbox', ['run', 'test:sandbox']]] : []),
  // The production build, packed as the .vsix: it also proves the .vscodeignore allowlist packs.
  ['build', ['run', 'package']],
  ['host', ['run', 'test:host']],
  ['ui', ['run', 'test:ui']],
];

const only = process.argv.slice(2);
let passed = 0;
const started = Date.now();
for (const [name, args] of stages) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✗ stage "${name}" failed after ${seconds(t0)}`);
    console.log(`stages: ${passed} passed, 1 failed`);
    process.exit(1);
  }
  console.log(`✓ ${name} (${seconds(t0)})`);
  passed++;
}
console.log(`\nAll stages passed in ${seconds(started)}.`);
console.log(`stages: ${passed} passed, 0 failed`);

function seconds(since) {
  return `${Math.round((Date.now() - since) / 1000)} s`;
}
