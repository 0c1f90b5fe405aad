// Part of `npm run lint`: docs/openapi.yaml, the interface a team codes against, passes Redocly's
// recommended rules (redocly.yaml). An error fails the lint, and so does a warning: a warning worth
// keeping is turned off in redocly.yaml with the reason beside it, not left to scroll past.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
const run = (format) => spawnSync(process.execPath, [cli, 'lint', `--format=${format}`], { cwd: root, env, encoding: 'utf8' });

const json = run('json');
let totals;
try {
  totals = JSON.parse(json.stdout).totals;
} catch {
  process.stderr.write(`lint-openapi: redocly did not answer in JSON (exit ${json.status})\n${json.stdout}${json.stderr}`);
  process.exit(1);
}
if (totals.errors === 0 && totals.warnings === 0) {
  console.log('docs/openapi.yaml: no problems (Redocly, recommended rules)');
  process.exit(0);
}
const shown = run('stylish');
process.stderr.write(shown.stdout + shown.stderr);
process.stderr.write(`lint-openapi: docs/openapi.yaml has ${totals.errors} error(s) and ${totals.warnings} warning(s)\n`);
process.exit(1);
