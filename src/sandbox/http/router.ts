import { HttpProblem } from './problem';

export type RouteName =
  | 'index'
  | 'health'
  | 'listActions'
  | 'createAction'
  | 'getAction'
  | 'updateAction'
  | 'deleteAction'
  | 'getImplementation'
  | 'putImplementation'
  | 'listEvents'
  | 'runAction'
  | 'listVersions'
  | 'getVersion';

export interface Match {
  name: RouteName;
  params: { applicationId?: string; actionId?: string; environmentId?: string; versionKind?: string; version?: string };
}

type Methods = Partial<Record<string, RouteName>>;

/**
 * Maps a method and path to a route. Segments are percent-decoded one by one, so ids may hold any
 * character. An unknown path is 404; a known path with another method is 405 with `Allow`.
 */
export function route(method: string, pathname: string): Match {
  const segments = pathname.split('/').slice(1).map(decode);
  const [api, kind, id, sub, envId, leaf, ...rest] = segments;
  let methods: Methods | undefined;
  const params: Match['params'] = {};
  if (api === 'api' && segments.length === 1) methods = { GET: 'index' };
  else if (api === 'healthz' && segments.length === 1) methods = { GET: 'health' };
  else if (api === 'api' && kind === 'application' && id && sub === 'actions' && segments.length === 4) {
    methods = { GET: 'listActions', POST: 'createAction' };
    params.applicationId = id;
  } else if (api === 'api' && kind === 'action' && id && segments.length === 3) {
    methods = { GET: 'getAction' };
    params.actionId = id;
  } else if (api === 'api' && kind === 'actions' && id) {
    params.actionId = id;
    if (segments.length === 3) methods = { GET: 'getAction', PUT: 'updateAction', DELETE: 'deleteAction' };
    else if (sub === 'implementation' && segments.length === 4) methods = { GET: 'getImplementation', PUT: 'putImplementation' };
    else if (sub === 'versions' && segments.length === 4) methods = { GET: 'listVersions' };
    else if (sub === 'versions' && segments.length === 6 && (envId === 'implementation' || envId === 'metadata') && /^[1-9][0-9]{0,8}$/.test(leaf ?? '')) {
      // …/versions/{implementation|metadata}/{n}
      params.versionKind = envId;
      params.version = leaf;
      methods = { GET: 'getVersion' };
    } else if (sub === 'environments' && envId && rest.length === 0) {
      params.environmentId = envId;
      if (leaf === 'events') methods = { GET: 'listEvents' };
      else if (leaf === 'runs') methods = { POST: 'runAction' };
    }
  }
  if (!methods) throw new HttpProblem(404, 'not-found', `no route for ${pathname}`);
  const name = methods[method] ?? (method === 'HEAD' ? methods.GET : undefined);
  if (!name) {
    const allow = Object.keys(methods);
    if (allow.includes('GET')) allow.push('HEAD');
    throw new HttpProblem(405, 'method-not-allowed', `${method} is not allowed here; use ${allow.join(', ')}`, undefined, { Allow: allow.join(', ') });
  }
  return { name, params };
}

function decode(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new HttpProblem(404, 'not-found', 'the path is not valid percent-encoding');
  }
  // Postgres text cannot hold NUL, so a query with it fails; no id can contain it, so nothing is there.
  if (decoded.includes('\u0000')) throw new HttpProblem(404, 'not-found', 'no id contains a NUL character');
  return decoded;
}
