/**
 * A server that lists what it likes, and the test workspace pointed at it for the length of a suite.
 * The security suites use it to play a hostile or broken platform: keys that climb out of the
 * application's folder, text that would be a link, details of a 422 that would run a command.
 * It listens on 127.0.0.1 only, and records every request with whether it carried a key.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { api, eventually, workspaceRoot } from './support';

export const HOSTILE_APP = 'hostile-app';
/** The application's folder, at the workspace root: `../../outside` from it leaves the workspace. */
export const HOSTILE_FOLDER = 'hostile';
/** Not the form of a real key (which the secrets check looks for): a marker to find in requests. */
export const HOSTILE_KEY = 'hostile-test-key-1';

export interface ListedByServer {
  readonly id: string;
  readonly key: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
  /** What GET /api/actions/{id} answers: the full metadata. */
  readonly metadata?: Record<string, unknown>;
  /** What GET /api/actions/{id}/implementation answers. */
  readonly code?: string;
}

export interface HeardRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
}

export interface HostileServer {
  readonly baseUrl: string;
  readonly requests: HeardRequest[];
  /** What the list answers; change it at will (the tree is refreshed by `refreshTree`). */
  actions: ListedByServer[];
  /** Answers for requests the list and reads do not cover (creates, updates, pushes): status and body. */
  reject: { status: number; body: Record<string, unknown> };
  /** What a run answers (POST …/runs): the event it recorded. */
  runEvent: Record<string, unknown>;
  /** Paths answered with a failure whatever else is set, e.g. the list with a 500. */
  failPaths: Record<string, { status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const requests: HeardRequest[] = [];
  const state = {
    actions: [] as ListedByServer[],
    reject: { status: 422, body: { type: 'about:blank', title: 'Unprocessable', status: 422, detail: 'refused' } as Record<string, unknown> },
    failPaths: {} as HostileServer['failPaths'],
    runEvent: { id: 'e1', name: 'success', data: { result: 'done' } } as Record<string, unknown>,
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res, path));
  });
  const answer = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const json = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${HOSTILE_KEY}`) return json(401, { status: 401, detail: 'no key' }, 'application/problem+json');
    const failure = state.failPaths[path];
    if (failure) return json(failure.status, failure.body, 'application/problem+json');
    if (req.method === 'GET' && path === '/api') return json(200, { extensions: { getAction: true, getImplementation: true, run: true } });
    if (req.method === 'GET' && path === `/api/application/${HOSTILE_APP}/actions`) {
      return json(
        200,
        state.actions.map((a) => ({
          id: a.id,
          key: a.key,
          name: a.name ?? a.key,
          description: a.description ?? '',
          eventsUrls: { Test: `/api/actions/${a.id}/environments/test/events`, Live: `/api/actions/${a.id}/environments/live/events` },
        })),
      );
    }
    const read = /^\/api\/actions\/([^/]+)(\/implementation)?$/.exec(path);
    const action = read && state.actions.find((a) => a.id === decodeURIComponent(read[1]!));
    if (req.method === 'GET' && action && read?.[2]) {
      res.writeHead(200, { 'content-type': 'application/typescript' });
      res.end(action.code ?? '');
      return;
    }
    if (req.method === 'GET' && action) return json(200, { id: action.id, ...action.metadata });
    if (req.method === 'GET' && /\/events$/.test(path)) return json(200, []);
    if (req.method === 'POST' && /\/runs$/.test(path)) return json(200, state.runEvent);
    return json(state.reject.status, state.reject.body, 'application/problem+json');
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  // The state itself is handed out: what a test sets is what the next answer reads.
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

export interface HostileProject {
  readonly server: HostileServer;
  readonly appFolder: vscode.Uri;
  /** The application's `uid`, by which the model and an event name it (an id is unique only in its project). */
  readonly appUid: string;
  /** Puts customactions.yaml back as it was and stops the server. */
  restore(): Promise<void>;
}

/**
 * Points the workspace's customactions.yaml at a hostile server with one application and stores its
 * key, as a user who cloned a repository and signed in would have. `restore()` puts the file back.
 */
export async function useHostileProject(): Promise<HostileProject> {
  const { services } = await api();
  const server = await startHostileServer();
  const projectUri = vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml');
  const original = await vscode.workspace.fs.readFile(projectUri);
  const text = `baseUrl: ${server.baseUrl}\napplications:\n  - id: ${HOSTILE_APP}\n    name: Hostile\n    folder: ${HOSTILE_FOLDER}\n`;
  await vscode.workspace.fs.writeFile(projectUri, new TextEncoder().encode(text));
  await services.project.reload();
  const state = await eventually(async () => {
    const project = await services.project.only().catch(() => undefined);
    return project?.baseUrl === server.baseUrl ? project : undefined;
  }, 'the project on the hostile server');
  await services.keys.set(server.baseUrl, HOSTILE_APP, HOSTILE_KEY);
  const appUid = state.applications.find((a) => a.id === HOSTILE_APP)?.uid;
  if (!appUid) throw new Error('the hostile application is not in the project');
  const appFolder = vscode.Uri.joinPath(workspaceRoot(), HOSTILE_FOLDER);
  await vscode.workspace.fs.createDirectory(appFolder);
  return {
    server,
    appFolder,
    appUid,
    restore: async () => {
      await services.keys.delete(server.baseUrl, HOSTILE_APP);
      await vscode.workspace.fs.writeFile(projectUri, original);
      await services.project.reload();
      await server.close();
    },
  };
}
