// The docs never tell anyone to run the unscoped name through npx: without a terminal npx fetches and
// runs whatever the registry has under `custom-actions`, which is not this project's, with the key.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Every text a user or the published package shows: the README, the docs, the package's own README, media. */
function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  const media = readdirSync(path.join(ROOT, 'media', 'walkthrough'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('media', 'walkthrough', f));
  return ['README.md', 'CHANGELOG.md', path.join('scripts', 'build', 'cli-package-readme.md'), ...docs, ...media];
}

describe('docs: no unscoped npx custom-actions', () => {
  it('every npx of the command line says --no (the installed copy) or names the scoped package', () => {
    const offending: string[] = [];
    for (const file of documents()) {
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // `npx [options] custom-actions`: options other than --no leave npx free to fetch the name.
          for (const match of line.matchAll(/\bnpx((?:\s+--?[\w-]+)*)\s+custom-actions\b(?!\/)/g))
            if (!/(^|\s)--no(\s|$)|--no-install/.test(match[1] ?? '') && !/never run `npx custom-actions`/.test(line))
              offending.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offending, []);
  });
});
