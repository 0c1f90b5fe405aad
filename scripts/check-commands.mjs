// Every command in package.json's contributes.commands is registered in code, and every command the
// code registers is contributed: a command that exists on one side only is a broken button or a
// hidden feature. Registered ids are read from the source: `'customActions.x': handler` table entries
// and registerCommand('customActions.x', …) calls.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributed = new Set((manifest.contributes?.commands ?? []).map((c) => c.command));

const registered = new Set();
const patterns = [/registerCommand\(\s*['"`](customActions\.[\w.]+)['"`]/g, /^\s*['"](customActions\.[\w.]+)['"]\s*:/gm];
for (const file of walk(path.join(root, 'src', 'extension'))) {
  const text = readFileSync(file, 'utf8');
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) registered.add(match[1]);
}
for (const ignored of [
  'customActions.viewState',
  'customActions.unreachableReason',
  'customActions.actions',
  'customActions.target',
  'customActions.metadataEditor',
])
  registered.delete(ignored);
// Registered only in test runs (ExtensionMode.Test) and never contributed: docs/testing.md.
for (const id of registered) if (id.startsWith('customActions.test.')) registered.delete(id);

const onlyContributed = [...contributed].filter((id) => !registered.has(id)).sort();
const onlyRegistered = [...registered].filter((id) => !contributed.has(id)).sort();
for (const id of onlyContributed) console.error(`contributed in package.json but never registered: ${id}`);
for (const id of onlyRegistered) console.error(`registered in code but not contributed in package.json: ${id}`);
if (onlyContributed.length || onlyRegistered.length) process.exit(1);
console.log(`check-commands: ${contributed.size} commands, each contributed and registered`);

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (full.endsWith('.ts')) yield full;
  }
}
