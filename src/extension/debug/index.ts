import * as vscode from 'vscode';
import { EVENT_SCHEME } from '../eventDocuments';
import { PLATFORM } from '../platform';
import { onDemand } from '../loadOnDemand';
import { type debugConfigurations } from './provider';
import { type Parts } from '../parts';
import { type LocalDebug } from './localDebug';
import { type Events } from '../events';
import { EventStackLinks } from './eventLinks';
import { ASKED, DEBUG_TYPE } from './configType';
import { MainCodeLens } from './mainLens';

export { type DebugRun, type DebugTarget, type LocalDebug } from './localDebug';

/**
 * Debug: the launch configuration type, the lenses above `main` and input sets, links in event
 * documents. What resolves a configuration and runs it (provider.ts, localDebug.ts) loads on first use.
 */
/** What debug's eager part takes from the on-demand bundle. */
export interface DebugOnDemand {
  readonly debugConfigurations: typeof debugConfigurations;
}

export function registerDebug(
  s: Pick<Parts, 'context' | 'eventDocuments' | 'model' | 'trust'> & { readonly debug: LocalDebug } & { readonly events: Events },
): vscode.Disposable[] {
  const lens = new MainCodeLens(s);
  let resolvers: ReturnType<typeof debugConfigurations> | undefined;
  const resolve = () => (resolvers ??= onDemand<DebugOnDemand>(s.context).debugConfigurations(s));
  // VS Code for the Web starts no process to debug in: the lens offers Run alone, and no launch type is resolved.
  if (!PLATFORM.processes) return [lens, vscode.languages.registerCodeLensProvider({ pattern: '**/main.ts' }, lens)];
  return [
    lens,
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/main.ts' }, lens),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      provideDebugConfigurations: () => resolve().configurations.provideDebugConfigurations(),
      resolveDebugConfiguration: (folder, config) => resolve().configurations.resolveDebugConfiguration(folder, config),
    }),
    vscode.debug.registerDebugConfigurationProvider('*', {
      // Every launch of every type passes here; only the ones this extension made load the rest.
      resolveDebugConfigurationWithSubstitutedVariables: (folder, config) =>
        ASKED in config ? resolve().runs.resolveDebugConfigurationWithSubstitutedVariables(folder, config) : config,
    }),
    vscode.languages.registerDocumentLinkProvider({ scheme: EVENT_SCHEME }, new EventStackLinks(s, s.eventDocuments)),
  ];
}
