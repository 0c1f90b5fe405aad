import type * as esbuild from 'esbuild';

export interface SplitBundle {
  /** Relative to root. */
  readonly entry: string;
  readonly outfile: string;
  readonly plugins: esbuild.Plugin[];
}

export function buildSplit(
  build: typeof esbuild,
  options: { readonly root: string; readonly common: esbuild.BuildOptions; readonly main: SplitBundle; readonly onDemand: SplitBundle },
): Promise<{ shared: string[]; alone: esbuild.Metafile; final: esbuild.Metafile; onDemand: esbuild.Metafile }>;
