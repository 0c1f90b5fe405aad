import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../../src/core/schema';
import { type Application } from '../../src/extension/project';
import { type Services } from '../../src/extension/services';
import { api, workspaceRoot } from '../../test/host/support';
import { TimingProxy } from './proxy';

export const APP = 'test-app';

export interface Bench {
  readonly services: Services;
  readonly activationMs: number;
  readonly app: Application;
  readonly proxy: TimingProxy;
  /** The proxy's base URL, which the project names. */
  readonly base: string;
  readonly key: string;
  restore(): Promise<void>;
}

export const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
export const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));

/**
 * The extension's own sandbox (started for the fixture's `local-sandbox`) with the project pointed at
 * a timing proxy in front of it, so every request the extension sends is seen and timed.
 */
export async function setUp(): Promise<Bench> {
  const { services, activationMs } = await api();
  const projectUri = vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml');
  const { actual } = await services.connections.baseUrl();
  const key = await services.keys.get(LOCAL_SANDBOX, APP);
  if (!key) throw new Error('the sandbox minted no key');
  const proxy = new TimingProxy(new URL(actual));
  const base = await proxy.start();
  const projectText = await read(projectUri);
  await services.keys.set(base, APP, key);
  await write(projectUri, projectText.replace('baseUrl: local-sandbox', `baseUrl: ${base}`));
  await services.project.reload();
  const state = await services.project.only();
  const app = state.kind === 'ok' ? state.applications.find((a) => a.id === APP) : undefined;
  if (!app || state.kind !== 'ok' || state.baseUrl !== base) throw new Error('the project does not go through the proxy');
  return {
    services,
    activationMs,
    app,
    proxy,
    base,
    key,
    async restore() {
      await write(projectUri, projectText);
      await services.project.reload();
      await proxy.close();
    },
  };
}
