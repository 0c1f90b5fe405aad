/** The package's version, set by the build (esbuild `define`); `dev` when run from source. */
declare const __CLI_VERSION__: string | undefined;
export const VERSION: string = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'dev';

/** Where the docs live (package.json's repository): the package holds only the README of them. */
export const REPOSITORY = 'https://github.com/custom-actions/custom-actions-vscode';
