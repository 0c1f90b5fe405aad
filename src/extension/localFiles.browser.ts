import { type LocalFiles } from './localFiles';

export type { LocalFiles } from './localFiles';

/** In a browser the extension host has no file system of its own: every file goes through `workspace.fs`. */
export const localFiles: LocalFiles | undefined = undefined;
