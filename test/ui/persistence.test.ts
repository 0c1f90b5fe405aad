import * as assert from 'node:assert/strict';
import { currentThemeClass, discard, openWorkbench, screenshot, setTheme, type KeptState } from './support/workbench';

describe('A workbench that is closed and opened again (browser)', function () {
  let state: KeptState | undefined;
  after(() => discard(state));

  it('keeps the settings of its profile across a restart of code-server and the browser', async () => {
    const first = await openWorkbench({ persistent: true });
    state = first.state;
    try {
      await setTheme(first, 'Default Light Modern');
      await screenshot(first.page, 'theme-light');
    } finally {
      await first.close();
    }
    const second = await openWorkbench({ resume: state });
    try {
      assert.equal(await currentThemeClass(second.page), 'vs');
    } finally {
      await second.close();
    }
  });
});
