/** The package's version, set by the build (esbuild `define`); `dev` when run from source. */
declare const __CLI_VERSION__: string | undefined;
export const VERSION: string = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'dev';
