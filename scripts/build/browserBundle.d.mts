import type { BuildOptions, Metafile, Plugin } from 'esbuild';

export const BROWSER_ENTRY: string;
export const browserTwins: Plugin;
export function browserBundleOptions(options: { root: string; production: boolean; plugins?: Plugin[] }): BuildOptions & { plugins: Plugin[] };
export function nodeModulesIn(metafile: Metafile): string[];
