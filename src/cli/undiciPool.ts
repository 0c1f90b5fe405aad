/**
 * What the command line's bundle takes for `undici`: the core client uses a `Pool` and its
 * `request`, and the package's index also loads fetch, WebSocket, cookies and caches, a third of a
 * second of every start of the process spent on code no command runs (esbuild.mjs points `undici`
 * here for dist/cli.js). The index gives every dispatcher its request method; so does this.
 */
import type * as Undici from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(Dispatcher.prototype, { request: require('undici/lib/api/api-request.js') as unknown });

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
