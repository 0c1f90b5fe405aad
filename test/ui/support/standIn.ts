import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCustomActionsView, openWorkbench, runCommand, treeRow, type Workbench } from './workbench';

/** The one action the stand-in servers list, and its events URL in Test. */
export const ACTION_ID = 'act-1';
export const TEST_EVENTS = `/api/actions/${ACTION_ID}/environments/env-test/events`;

export interface Reply {
  json(status: number, body: unknown): void;
  empty(status: number): void;
  /** The request's body as text, then `answer` with it. */
  body(answer: (text: string) => void): void;
}

export interface StandIn {
  readonly server: Server;
  readonly port: number;
  close(): void;
}

/**
 * A small server in the platform's shape for browser tests that need answers a sandbox would not give
 * at will: every request needs a Bearer key, the application `ui-app` lists the action `greet`, and
 * `route` answers the rest (returning false for a 404).
 */
export function standInServer(route: (req: IncomingMessage, url: URL, reply: Reply) => boolean): Promise<StandIn> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const reply: Reply = {
      json: (status, body) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      empty: (status) => void res.writeHead(status).end(),
      body: (answer) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => answer(text));
      },
    };
    if (!(req.headers.authorization ?? '').startsWith('Bearer ')) return reply.empty(401);
    if (url.pathname === '/api/application/ui-app/actions' && req.method === 'GET') {
      return reply.json(200, [
        { id: ACTION_ID, key: 'greet', name: 'Greet', description: '', eventsUrls: { Test: TEST_EVENTS, Live: TEST_EVENTS.replace('env-test', 'env-live') } },
      ]);
    }
    if (!route(req, url, reply)) reply.json(404, { title: 'Not Found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, close: () => server.close() });
    }),
  );
}

/** A workspace with the project on `port` and the action `greet` (one number parameter, a text result). */
export function greetWorkspace(name: string, port: number): string {
  const fixture = mkdtempSync(path.join(os.tmpdir(), `custom-actions-ui-${name}-`));
  mkdirSync(path.join(fixture, 'ui-app', 'greet'), { recursive: true });
  writeFileSync(
    path.join(fixture, 'customactions.yaml'),
    `baseUrl: http://127.0.0.1:${port}\napplications:\n  - id: ui-app\n    name: UI App\n    folder: ui-app\n`,
  );
  writeFileSync(
    path.join(fixture, 'ui-app', 'greet', 'action.yaml'),
    'key: greet\nname: Greet\ndescription: Says hello\ndeveloperEmail: dev@example.com\nparameters:\n  - name: times\n    type: number\nresult:\n  type: text\n',
  );
  writeFileSync(path.join(fixture, 'ui-app', 'greet', 'main.ts'), "export function main(times: number): string {\n  return 'hello';\n}\n");
  return fixture;
}

/** Sign In for UI App through the palette, as a user types the key. */
export async function signInToUiApp(page: Page, key: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await runCommand(page, 'Custom Actions: Sign In');
  const appRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'UI App' });
  await page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).or(appRow).first().waitFor();
  if (await appRow.count()) await appRow.first().click();
  await page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).waitFor();
  await input.fill(key);
  await input.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** A workbench on `greetWorkspace` against a stand-in server, signed in to UI App; `prepare` edits the fixture before it opens. */
export interface GreetWorkbench {
  readonly server: StandIn;
  readonly wb: Workbench;
  readonly page: Page;
  close(): Promise<void>;
}

export async function openGreetWorkbench(
  name: string,
  options: { route?: Parameters<typeof standInServer>[0]; prepare?: (fixture: string, server: StandIn) => void } = {},
): Promise<GreetWorkbench> {
  const server = await standInServer(options.route ?? (() => false));
  const fixture = greetWorkspace(name, server.port);
  let wb: Workbench | undefined;
  const close = async () => {
    await wb?.close();
    server.close();
    rmSync(fixture, { recursive: true, force: true });
  };
  try {
    options.prepare?.(fixture, server);
    wb = await openWorkbench({ fixture });
    await signInToUiApp(wb.page, name);
    return { server, wb, page: wb.page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The Custom Actions view open, with UI App's row expanded. */
export async function expandUiApp(page: Page): Promise<void> {
  await openCustomActionsView(page);
  const app = treeRow(page, 'UI App').first();
  await app.waitFor({ timeout: 60_000 });
  if ((await app.getAttribute('aria-expanded')) !== 'true') await app.click();
}
