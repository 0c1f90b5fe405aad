import * as vscode from 'vscode';
import { EVENT_SCHEME } from '../eventDocuments';
import { type Services } from '../services';
import { EventStackLinks } from './eventLinks';
import { MainCodeLens } from './mainLens';
import { registerRunDocuments } from './outcome';
import { ActionDebugConfigurations, ActionDebugRuns, DEBUG_TYPE } from './provider';

export { DEBUG_COMMANDS } from './commands';
export { LocalDebug } from './localDebug';

/** Debug: the launch configuration type, the lenses above `main` and input sets, links in event documents. */
export function registerDebug(s: Services): vscode.Disposable[] {
  const lens = new MainCodeLens(s);
  return [
    lens,
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/main.ts' }, lens),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ActionDebugConfigurations(s)),
    vscode.debug.registerDebugConfigurationProvider('*', new ActionDebugRuns(s)),
    vscode.languages.registerDocumentLinkProvider({ scheme: EVENT_SCHEME }, new EventStackLinks(s, s.eventDocuments)),
    registerRunDocuments(),
  ];
}
