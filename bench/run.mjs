// `npm run bench [name…]`: runs the benchmarks (all, or those named), passes their JSON lines through
// and ends with a summary table, also written to test-results/bench/ with the machine and the date.
// Exits non-zero only when a bench could not measure, never because a target was missed.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tsx = ['--import', 'tsx'];
const benches = {
  sandbox: [...tsx, 'bench/node/sandbox.ts'],
  'sandbox-pg': [...tsx, 'bench/node/sandboxPg.ts'],
  events: [...tsx, 'bench/node/events.ts'],
  history: ['--expose-gc', ...tsx, 'bench/node/history.ts'],
  cli: [...tsx, 'bench/node/cli.ts'],
  'cli-test': [...tsx, 'bench/node/cliTest.ts'],
  host: ['bench/host.mjs'],
};

const named = process.argv.slice(2);
const unknown = named.filter((n) => !(n in benches));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')} (known: ${Object.keys(benches).join(', ')})`);
  process.exit(2);
}

const figures = [];
const failed = [];
for (const name of named.length > 0 ? named : Object.keys(benches)) {
  console.error(`\n== ${name}`);
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, benches[name], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let rest = '';
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        process.stdout.write(line + '\n');
        if (!line.startsWith('{')) continue;
        try {
          figures.push(JSON.parse(line));
        } catch {
          // Not a figure: passed through only.
        }
      }
    });
    child.on('close', (c) => resolve(c ?? 1));
  });
  console.error(`== ${name}: ${Math.round((Date.now() - started) / 1000)} s${code ? `, could not measure (exit ${code})` : ''}`);
  if (code) failed.push(name);
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}`;
const rows = figures.map(
  (f) =>
    `| ${f.bench} | ${f.metric} | ${f.value} ${f.unit} | ${f.target === undefined ? '' : `${f.target} ${f.unit}`} | ${f.ok === undefined ? '' : f.ok ? 'met' : '**missed**'} | ${f.note ?? ''} |`,
);
const table = [
  `${new Date().toISOString().slice(0, 10)}, ${machine}`,
  '',
  '| bench | metric | value | target | | note |',
  '|---|---|---|---|---|---|',
  ...rows,
].join('\n');
console.log(`\n${table}`);
const out = path.join(root, 'test-results', 'bench');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'summary.md'), table + '\n');
writeFileSync(path.join(out, 'figures.json'), JSON.stringify({ date: new Date().toISOString(), machine, figures }, null, 2) + '\n');
if (failed.length > 0) console.error(`\ncould not measure: ${failed.join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
