export const EXTENSION_ENTRY: string;
export const ON_DEMAND_ENTRY: string;
export const ON_DEMAND_MODULES: readonly string[];

/** The metafiles' parts the check reads (buildSplit returns them whole). */
export interface SplitMetafiles {
  readonly final: { readonly outputs: Record<string, { readonly inputs: Record<string, unknown> }> };
  readonly onDemand: { readonly inputs: Record<string, { readonly imports: readonly { readonly path: string }[] }> };
}

export function onDemandModulesInExtension(metafiles: SplitMetafiles, declared?: readonly string[]): string[];
