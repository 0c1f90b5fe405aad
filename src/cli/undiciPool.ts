/**
 * What the command line's bundle takes for `undici`: the core client uses a `Pool` and its
 * `request`, and the package's index also loads fetch, WebSocket, cookies and caches, a third of a
 * second of every start of the process spent on code no command runs (esbuild.mjs points `undici`
 * here for dist/cli.js). The index gives every dispatcher its request method; so does this.
 * `ProxyAgent`, for HTTPS_PROXY and HTTP_PROXY, is required when the first one is made, so a start
 * without a proxy runs none of its modules.
 */
import type * as Undici from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(Dispatcher.prototype, { request: require('undici/lib/api/api-request.js') as unknown });

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;

/** Made with `new`, it returns undici's own agent (a constructor may return an object). */
export const ProxyAgent = function ProxyAgent(options: Undici.ProxyAgent.Options) {
  // The agent opens its tunnels with a client's connect method (CONNECT), which the index gives every dispatcher.
  Object.assign(Dispatcher.prototype, { connect: require('undici/lib/api/api-connect.js') as unknown });
  const Agent = require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;
  return new Agent(options);
} as unknown as typeof Undici.ProxyAgent;
