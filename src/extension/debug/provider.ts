import * as vscode from 'vscode';
import { MAIN_FILE } from '../../core/workspace';
import { askInputs } from '../events/inputForm';
import { readInputSet } from '../events/inputSets';
import { readLocalAction } from '../localActions';
import { type Services } from '../services';

export const DEBUG_TYPE = 'customActions';

/**
 * The `customActions` launch configuration: "debug this action with this input set" (or these
 * inputs), resolved into the node launch configuration of the local harness. F5 on a main.ts with no
 * launch.json debugs that action; compounds and attach configurations stay the user's to write.
 */
export class ActionDebugConfigurations implements vscode.DebugConfigurationProvider {
  constructor(private readonly s: Services) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: DEBUG_TYPE, request: 'launch', name: 'Debug action', action: '${fileDirname}' }];
  }

  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    // F5 without a launch.json: the action whose main.ts is in the editor.
    if (!config.type && !config.request && !config.name) {
      const editor = vscode.window.activeTextEditor;
      if (!editor?.document.uri.path.endsWith(`/${MAIN_FILE}`)) return config;
      return { type: DEBUG_TYPE, request: 'launch', name: 'Debug action', action: '${fileDirname}' };
    }
    return config;
  }

  async resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): Promise<vscode.DebugConfiguration | undefined> {
    if (config.type !== DEBUG_TYPE) return config;
    this.s.trust.require('Debugging an action');
    const actionFolder = resolvePath(folder, config.action);
    const local = actionFolder && (await readLocalAction(actionFolder));
    if (!local?.metadata) {
      void vscode.window.showErrorMessage(`"action" must name an action folder (with a valid action.yaml); got ${JSON.stringify(config.action)}.`);
      return undefined;
    }
    let inputs: unknown = config.inputs;
    const setFile = resolvePath(folder, config.inputSet);
    if (inputs === undefined && setFile) {
      const set = await readInputSet(setFile, local.metadata.parameters);
      if (set.problems.length > 0) {
        void vscode.window.showErrorMessage(`The input set ${set.name} does not fit the parameters of ${local.key}: ${set.problems.join('; ')}`);
        return undefined;
      }
      inputs = set.inputs;
    }
    inputs ??= await askInputs(`Debug ${local.key}`, local.metadata.parameters);
    if (inputs === undefined) return undefined;
    const resolved = await this.s.debug.launchConfig({ key: local.key, folder: local.folder, metadata: local.metadata, inputs });
    return { ...resolved, name: typeof config.name === 'string' ? config.name : resolved.name };
  }
}

/** An absolute path, or one relative to the workspace folder. */
function resolvePath(folder: vscode.WorkspaceFolder | undefined, value: unknown): vscode.Uri | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (value.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(value)) return vscode.Uri.file(value);
  return folder ? vscode.Uri.joinPath(folder.uri, value) : undefined;
}
