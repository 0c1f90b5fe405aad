import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../src/cli/projectRoot';
import {
  isExcludedFromProjectSearch,
  nearestProject,
  parentPath,
  PROJECT_FILE,
  PROJECT_SEARCH_EXCLUDE,
  projectHolding,
  projectNames,
  projectRootOfFile,
} from '../../src/core/workspace';

describe('projects: which folder is one, which one holds a file', () => {
  const roots = ['/ws/shop', '/ws/shop/tools/admin', '/ws/crm'];

  it('a file belongs to the nearest project at or above it', () => {
    assert.equal(projectHolding(roots, '/ws/shop/billing/score/main.ts'), '/ws/shop');
    assert.equal(projectHolding(roots, '/ws/shop/tools/admin/ops/a/main.ts'), '/ws/shop/tools/admin');
    assert.equal(projectHolding(roots, '/ws/shop/tools/admin'), '/ws/shop/tools/admin');
    assert.equal(projectHolding(roots, '/ws/shop/tools/admin/customactions.yaml'), '/ws/shop/tools/admin');
    assert.equal(projectHolding(roots, '/ws/shop/tools/administration/x.ts'), '/ws/shop', 'a folder name that only starts like a project is not in it');
    assert.equal(projectHolding(roots, '/ws/crm/app/a/action.yaml'), '/ws/crm');
  });

  it('a file outside every project belongs to none', () => {
    assert.equal(projectHolding(roots, '/ws/notes/readme.md'), undefined);
    assert.equal(projectHolding(roots, '/ws'), undefined);
    assert.equal(projectHolding([], '/ws/shop/a.ts'), undefined);
  });

  it('a project at the very top of a file system holds what is below it', () => {
    assert.equal(projectHolding(['/'], '/a/b.ts'), '/');
    assert.equal(projectHolding(['/ws/shop/'], '/ws/shop/a.ts'), '/ws/shop', 'a trailing slash names the same folder');
  });

  it('the folder of a project file is the project; other files name none', () => {
    assert.equal(projectRootOfFile('/ws/shop/customactions.yaml'), '/ws/shop');
    assert.equal(projectRootOfFile('/customactions.yaml'), '/');
    assert.equal(projectRootOfFile('/ws/shop/customactions.yaml.bak'), undefined);
    assert.equal(projectRootOfFile('/ws/shop/my-customactions.yaml'), undefined);
  });

  it('parents of a path end at the top', () => {
    assert.equal(parentPath('/a/b'), '/a');
    assert.equal(parentPath('/a/b/'), '/a');
    assert.equal(parentPath('/a'), '/');
    assert.equal(parentPath('/'), undefined);
  });

  it("installed packages and version control's folders hold no project", () => {
    assert.equal(isExcludedFromProjectSearch('/ws/shop/node_modules/some-pkg'), true);
    assert.equal(isExcludedFromProjectSearch('C:\\ws\\node_modules\\x'), true);
    assert.equal(isExcludedFromProjectSearch('/ws/shop/.git/x'), true);
    assert.equal(isExcludedFromProjectSearch('/ws/shop/node_modules_notes'), false);
    assert.match(PROJECT_SEARCH_EXCLUDE, /node_modules/);
    // The rule itself skips them: a package's own file in node_modules is not the nearest project.
    const withPackage = ['/ws/shop', '/ws/shop/node_modules/pkg'];
    assert.equal(projectHolding(withPackage, '/ws/shop/node_modules/pkg/index.js'), '/ws/shop');
  });

  it('the rule walks any kind of path it is given the parent of', () => {
    const seen: string[] = [];
    const found = nearestProject(
      'c/b/a',
      (f) => (seen.push(f), f === 'c'),
      (f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : undefined),
    );
    assert.equal(found, 'c');
    assert.deepEqual(seen, ['c/b/a', 'c/b', 'c']);
  });

  it('names: a workspace folder its name, a nested one its folder, alike ones their path', () => {
    const shop = { name: 'shop', path: '/ws/shop' };
    const crm = { name: 'crm', path: '/ws/crm' };
    assert.deepEqual(
      projectNames([
        { root: '/ws/shop', workspaceFolder: shop },
        { root: '/ws/shop/tools/admin', workspaceFolder: shop },
        { root: '/ws/crm', workspaceFolder: crm },
      ]),
      ['shop', 'admin', 'crm'],
    );
    assert.deepEqual(
      projectNames([
        { root: '/ws/shop/api', workspaceFolder: shop },
        { root: '/ws/crm/api', workspaceFolder: crm },
      ]),
      ['shop › api', 'crm › api'],
    );
    assert.deepEqual(
      projectNames([
        { root: '/ws/shop/a/api', workspaceFolder: shop },
        { root: '/ws/shop/b/api', workspaceFolder: shop },
      ]),
      ['a/api', 'b/api'],
    );
  });
});

describe('projects: the command line finds its project by the same rule', () => {
  let top: string;
  before(() => {
    top = mkdtempSync(path.join(tmpdir(), 'ca-projects-'));
    for (const dir of ['shop/billing/score', 'shop/tools/admin/ops', 'shop/node_modules/pkg', 'notes']) mkdirSync(path.join(top, dir), { recursive: true });
    for (const dir of ['shop', 'shop/tools/admin', 'shop/node_modules/pkg'])
      writeFileSync(path.join(top, dir, PROJECT_FILE), 'baseUrl: local-sandbox\napplications: []\n');
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  it('from every folder, the project the editor gives a file there', () => {
    const roots = ['shop', 'shop/tools/admin', 'shop/node_modules/pkg'].map((r) => path.join(top, r).split(path.sep).join('/'));
    for (const dir of ['shop', 'shop/billing/score', 'shop/tools', 'shop/tools/admin', 'shop/tools/admin/ops', 'shop/node_modules/pkg', 'notes']) {
      const absolute = path.join(top, dir);
      const byEditor = projectHolding(roots, absolute.split(path.sep).join('/'));
      const byCli = findProjectRoot(absolute);
      assert.equal(byCli?.split(path.sep).join('/'), byEditor, dir);
    }
    assert.equal(findProjectRoot(path.join(top, 'shop/tools/admin/ops')), path.join(top, 'shop/tools/admin'));
    assert.equal(findProjectRoot(path.join(top, 'shop/node_modules/pkg')), path.join(top, 'shop'));
  });
});
