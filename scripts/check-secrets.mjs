// The last stage of `npm test`: no API key may appear in anything the suites produced. Every key the
// sandbox mints has the form ca_sk_<43 base64url characters>, so a whole key is recognizable wherever it
// lands: the captured output of every stage (test-results/stages/*.log, written by scripts/test.mjs, which
// includes the host run's output), the rest of test-results/ (screenshots, and under leftovers/ the
// profile and workspace of every code-server window the host, UI and bench runs opened: settings, state,
// every output channel's log), .vscode-test/ (desktop runs), and sandbox data directories (.sandbox-data/).
// A redacted key ("Bearer …", "ca_sk_…") does not match; only a whole one does.
// `node scripts/check-secrets.mjs [more folders or files]`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const KEY = /ca_sk_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const MAX_BYTES = 50 * 1024 * 1024;
const SKIP = new Set(['node_modules', '.git']);

const targets = [
  path.join(root, 'test-results'),
  path.join(root, '.vscode-test'),
  path.join(root, '.sandbox-data'),
  path.join(root, 'demo', '.sandbox-data'),
  ...process.argv.slice(2).map((p) => path.resolve(p)),
].filter((p) => existsSync(p));

let files = 0;
const leaks = [];
for (const target of targets) walk(target);

function walk(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    if (SKIP.has(path.basename(file))) return;
    for (const name of readdirSync(file)) walk(path.join(file, name));
    return;
  }
  if (!stat.isFile() || stat.size > MAX_BYTES) return;
  const bytes = readFileSync(file);
  // Binary files (screenshots, databases) are read as latin1: a key is ASCII, so it still shows.
  const text = bytes.toString('latin1');
  files++;
  for (const match of text.matchAll(KEY)) {
    const line = text.slice(0, match.index).split('\n').length;
    leaks.push(`${path.relative(root, file)}:${line}: ${match[0].slice(0, 9)}… (a whole key)`);
  }
}

console.log(`check-secrets: ${files} file(s) under ${targets.map((t) => path.relative(root, t) || '.').join(', ') || 'nothing (no outputs yet)'}`);
if (leaks.length > 0) {
  console.error(`check-secrets: ${leaks.length} key(s) found where none may be:\n  ${leaks.slice(0, 50).join('\n  ')}`);
  process.exit(1);
}
console.log('check-secrets: no key found');
