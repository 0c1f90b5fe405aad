import type { Plugin } from 'esbuild';

export const yamlEsModule: Plugin;
