import * as assert from 'node:assert/strict';
import { isInside, judgeWrite, type PathFact, pathsToCheck } from '../../src/core/workspace';

const ROOT = '/home/me/ws';
const REAL = '/data/me/ws';

describe('Writes stay inside the workspace folder', () => {
  it('lists the target and every folder above it, down to the workspace folder', () => {
    assert.deepEqual(pathsToCheck(ROOT, `${ROOT}/app/act/action.generated.ts`), [`${ROOT}/app/act/action.generated.ts`, `${ROOT}/app/act`, `${ROOT}/app`]);
    assert.deepEqual(pathsToCheck(`${ROOT}/`, `${ROOT}/customactions.yaml`), [`${ROOT}/customactions.yaml`]);
    assert.deepEqual(pathsToCheck('/', '/a/b'), ['/a/b', '/a']);
  });

  it('names nothing for a target that is the workspace folder, beside it or climbs out', () => {
    for (const target of [ROOT, `${ROOT}/`, '/home/me/ws2/a', '/home/me/other', `${ROOT}/a/../../x`, `${ROOT}/./a`, `${ROOT}//a`]) {
      assert.equal(pathsToCheck(ROOT, target), undefined, target);
    }
  });

  it('allows absent paths, and real paths inside the real workspace folder, links inside included', () => {
    const facts: PathFact[] = [
      { path: `${ROOT}/app/act/action.generated.ts`, state: 'absent' },
      { path: `${ROOT}/app/act`, state: 'present', real: `${REAL}/app/act` },
      // A link from one application folder to another of the same workspace stays inside.
      { path: `${ROOT}/app`, state: 'present', real: `${REAL}/shared-app` },
    ];
    assert.deepEqual(judgeWrite(ROOT, REAL, facts), { ok: true });
  });

  it('refuses a target, or any folder above it, whose real path leaves the workspace folder', () => {
    const target = `${ROOT}/app/act/action.generated.ts`;
    const cases: [PathFact[], string][] = [
      [[{ path: target, state: 'present', real: '/home/me/.bashrc' }], 'app/act/action.generated.ts is a link to a place outside'],
      [
        [
          { path: target, state: 'absent' },
          { path: `${ROOT}/app/act`, state: 'present', real: '/home/me/other-repo/act' },
        ],
        'app/act is a link to a place outside',
      ],
      [
        [
          { path: target, state: 'absent' },
          { path: `${ROOT}/app/act`, state: 'present', real: `${REAL}/app/act` },
          { path: `${ROOT}/app`, state: 'present', real: '/home/me/other-repo' },
        ],
        'app is a link to a place outside',
      ],
      // A link out and a link back in still passed through a folder outside.
      [
        [
          { path: target, state: 'absent' },
          { path: `${ROOT}/app/act`, state: 'present', real: `${REAL}/elsewhere` },
          { path: `${ROOT}/app`, state: 'present', real: '/tmp/x' },
        ],
        'app is a link',
      ],
      [[{ path: target, state: 'dangling' }], 'points to nothing'],
      [[{ path: target, state: 'link' }], 'is a symbolic link'],
      // A sibling whose name starts like the workspace folder is not inside it.
      [[{ path: target, state: 'present', real: `${REAL}-evil/x` }], 'outside'],
    ];
    for (const [facts, reason] of cases) {
      const check = judgeWrite(ROOT, REAL, facts);
      assert.equal(check.ok, false, JSON.stringify(facts));
      assert.match(check.ok ? '' : check.reason, new RegExp(reason.replace(/[.]/g, '\\.')));
    }
  });

  it('compares Windows paths by separator and, where asked, without case', () => {
    assert.equal(isInside('C:\\Users\\me\\ws', 'C:\\Users\\me\\ws\\app\\x.ts'), true);
    assert.equal(isInside('C:\\Users\\me\\ws', 'c:\\users\\ME\\ws\\app', true), true);
    assert.equal(isInside('C:\\Users\\me\\ws', 'c:\\users\\ME\\ws\\app'), false);
    assert.equal(isInside('C:\\Users\\me\\ws', 'C:\\Users\\me\\ws2'), false);
  });
});
