import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { openWorkbench, quickOpen, repoRoot, screenshot, webview, type Workbench } from './support/workbench';
import { eventually, staysTrue } from '../support/eventually';

const FIXTURE = path.join(repoRoot, 'test', 'host', 'fixtures', 'form');

/** A violation as the form's document reported it through `securitypolicyviolation`. */
interface Violation {
  readonly violated: string;
  readonly effective: string;
  readonly blocked: string;
}

/**
 * A foreign origin on loopback (another port than code-server's): it counts every request and answers
 * with what a successful attack would get, a script that sets a marker and a tiny image.
 */
function foreignServer(): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method ?? '?'} ${req.url ?? ''}`);
    if ((req.url ?? '').endsWith('.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end("document.body.dataset.pwnedForeignScript = '1';");
      return;
    }
    res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64'));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, requests });
    }),
  );
}

/**
 * What a hostile script that got into the form's DOM would try, as page code in the form's frame.
 * Playwright's evaluate itself is not bound by the page's CSP, so it only records violations and
 * inserts elements; whatever those elements would run or load is subject to the CSP, which is what is
 * tested. Each attempt, if it worked, sets a `pwned…` marker on the body or reaches the foreign server.
 * A string, so the Node-side type check needs no DOM library.
 */
function attack(foreign: string): string {
  return `(() => {
    const foreign = ${JSON.stringify(foreign)};
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push({ violated: e.violatedDirective, effective: e.effectiveDirective, blocked: e.blockedURI });
    });
    // (a) An inline script: it would set a marker and call the foreign server.
    const inline = document.createElement('script');
    inline.textContent = "document.body.dataset.pwnedInlineScript = '1'; new Image().src = " + JSON.stringify(foreign + '/from-inline-script.gif') + ";";
    document.body.append(inline);
    // (b) Inline event handlers: a button's onclick, clicked, and the classic <img src onerror> markup.
    const button = document.createElement('button');
    button.id = 'pwn-button';
    button.textContent = 'injected';
    button.setAttribute('onclick', "document.body.dataset.pwnedOnclick = '1'");
    document.body.append(button);
    button.click();
    document.body.insertAdjacentHTML('beforeend', '<img id="pwn-onerror" alt="" src="nowhere:" onerror="document.body.dataset.pwnedOnerror = \\'1\\'">');
    // (c) An image from the foreign origin.
    const image = document.createElement('img');
    image.alt = '';
    image.src = foreign + '/image.gif';
    document.body.append(image);
    // (d) A script from the foreign origin: it would set a marker.
    const script = document.createElement('script');
    script.src = foreign + '/script.js';
    document.body.append(script);
  })()`;
}

const violations = async (form: FrameLocator): Promise<Violation[]> =>
  JSON.parse(String(await form.locator('body').evaluate('JSON.stringify(window.__cspViolations ?? [])'))) as Violation[];

const markers = async (form: FrameLocator): Promise<string[]> =>
  JSON.parse(
    String(await form.locator('body').evaluate('JSON.stringify(Object.keys(document.body.dataset).filter((k) => k.startsWith("pwned")))')),
  ) as string[];

/**
 * Whether a violation is about one of `directives`. The effective directive is the specific one
 * (`script-src-elem`, `script-src-attr`, `img-src`), which the policy covers with `script-src` and `default-src`.
 */
const about = (v: Violation, ...directives: string[]): boolean => directives.includes(v.effective) || directives.includes(v.violated);

describe('Webview content security policy (browser)', function () {
  let wb: Workbench;
  let page: Page;
  let form: FrameLocator;
  let foreign: Awaited<ReturnType<typeof foreignServer>>;

  before(async () => {
    foreign = await foreignServer();
    wb = await openWorkbench({ fixture: FIXTURE, settings: { 'workbench.editor.enablePreview': false } });
    page = wb.page;
    form = webview(page);
  });
  after(async () => {
    await wb?.close();
    foreign?.server.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `security-failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  it('opens action.yaml in the form, whose page carries the CSP', async () => {
    await quickOpen(page, 'greet/action.yaml');
    await form.locator('h1', { hasText: 'Greet' }).waitFor({ timeout: 60_000 });
    await form.locator('#summary', { hasText: 'No problems' }).waitFor();
    const csp = String(await form.locator('body').evaluate(`document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? ''`));
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-/);
  });

  it('blocks an injected inline script, inline handlers, a foreign image and a foreign script, and reports each', async () => {
    await form.locator('body').evaluate(attack(foreign.origin));
    // Violations are reported asynchronously. Wait until each attempt has settled, blocked (a violation)
    // or, with a weaker policy, through (a marker, a request), so a failure says what got through.
    const requested = (file: string) => foreign.requests.some((r) => r.includes(file));
    await eventually(async () => {
      const [all, set] = [await violations(form), await markers(form)];
      const inlineScript = all.some((v) => v.effective === 'script-src-elem' && v.blocked === 'inline') || set.includes('pwnedInlineScript');
      const handlers =
        all.filter((v) => v.effective === 'script-src-attr' && v.blocked === 'inline').length +
        set.filter((m) => m === 'pwnedOnclick' || m === 'pwnedOnerror').length;
      const image = all.some((v) => v.blocked.startsWith(`${foreign.origin}/image.gif`)) || requested('/image.gif');
      const script = all.some((v) => v.blocked.startsWith(`${foreign.origin}/script.js`)) || requested('/script.js');
      return inlineScript && handlers >= 2 && image && script ? true : undefined;
    }, 'each injected element to be blocked or to get through');
    // Whatever the blocked attempts would have done, give it time to happen.
    await staysTrue(async () => (await markers(form)).length === 0, 'no injected code ran', 1_000);
    assert.deepEqual(foreign.requests, [], 'the foreign server was never asked');
    const seen = await violations(form);
    const inline = seen.filter((v) => v.blocked === 'inline');
    assert.ok(
      inline.some((v) => v.effective === 'script-src-elem'),
      'the inline script was reported under script-src',
    );
    assert.equal(inline.filter((v) => v.effective === 'script-src-attr').length, 2, 'both inline handlers were reported under script-src');
    assert.ok(
      seen.some((v) => about(v, 'img-src', 'default-src') && v.blocked === `${foreign.origin}/image.gif`),
      'the foreign image was reported under img-src',
    );
    assert.ok(
      seen.some((v) => about(v, 'script-src-elem', 'script-src', 'default-src') && v.blocked === `${foreign.origin}/script.js`),
      'the foreign script was reported under script-src',
    );
    // The injected elements are in the page, so what stopped them is the policy, not a failed insertion.
    assert.equal(await form.locator('#pwn-button').count(), 1);
    assert.equal(await form.locator('#pwn-onerror').count(), 1);
  });

  it('still edits after the attempt', async () => {
    const name = form.locator('#f-name').locator('input, textarea').first();
    await name.fill('Greet Safely');
    await form.locator('h1', { hasText: 'Greet Safely' }).waitFor();
    await form.locator('#summary', { hasText: 'No problems' }).waitFor();
    assert.equal(await name.inputValue(), 'Greet Safely');
    await screenshot(page, 'security-csp');
    assert.deepEqual(await markers(form), []);
    assert.deepEqual(foreign.requests, []);
  });
});
