import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { ACTION_FILE, MAIN_FILE } from '../../core/workspace';
import { askInputs, doesNotFit, readInputSet } from '../events/commands';
import { type Parts } from '../parts';
import { type LocalDebug } from './localDebug';
import { explainUntrusted, UntrustedWorkspaceError } from '../trust';
import { ASKED, DEBUG_TYPE } from './configType';
import { RUN_ID } from './launchConfig';

interface Asked {
  readonly action: unknown;
  readonly inputSet: unknown;
  readonly inputs: unknown;
}

/**
 * The `customActions` launch configuration: "debug this action with this input set" (or these
 * inputs). F5 on a main.ts with no launch.json debugs that action; compounds and attach
 * configurations stay the user's to write.
 *
 * Resolution goes in VS Code's two steps. Before variables are substituted, the configuration
 * becomes a node launch of the harness (VS Code then lets the JavaScript debugger resolve it as one
 * of its own, which it must: a type changed later is never resolved again), carrying what was asked
 * for. Once `${workspaceFolder}` and friends are substituted, the `*` step reads the action and its
 * inputs and fills the run in.
 */
export class ActionDebugConfigurations implements vscode.DebugConfigurationProvider {
  constructor(private readonly s: Pick<Parts, 'trust'> & { readonly debug: LocalDebug }) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: DEBUG_TYPE, request: 'launch', name: 'Debug action', action: '${fileDirname}' }];
  }

  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    // F5 without a launch.json: the action whose main.ts is in the editor.
    if (!config.type && !config.request && !config.name) {
      const editor = vscode.window.activeTextEditor;
      if (!editor?.document.uri.path.endsWith(`/${MAIN_FILE}`)) return config;
      config = { type: DEBUG_TYPE, request: 'launch', name: 'Debug action', action: '${fileDirname}' };
    }
    if (config.type !== DEBUG_TYPE) return config;
    // The user's code runs unconfined on this machine: in an untrusted workspace F5 says why nothing starts.
    if (!this.s.trust.isTrusted) {
      explainUntrusted(new UntrustedWorkspaceError('Debugging an action'));
      return undefined;
    }
    const name = typeof config.name === 'string' ? config.name : 'Debug action';
    const asked: Asked = { action: config.action, inputSet: config.inputSet, inputs: config.inputs };
    return { ...this.s.debug.skeletonConfig(name, typeof config.action === 'string' ? config.action : ''), [ASKED]: asked };
  }
}

/** Both steps, built when a `customActions` configuration is first resolved. */
export const debugConfigurations = (s: Pick<Parts, 'model' | 'trust'> & { readonly debug: LocalDebug }) => ({
  configurations: new ActionDebugConfigurations(s),
  runs: new ActionDebugRuns(s),
});

/** The `*` step: only configurations this extension made (they carry ASKED) are touched. */
export class ActionDebugRuns implements vscode.DebugConfigurationProvider {
  constructor(private readonly s: Pick<Parts, 'model'> & { readonly debug: LocalDebug }) {}

  async resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): Promise<vscode.DebugConfiguration | undefined> {
    const asked = config[ASKED] as Asked | undefined;
    if (typeof asked !== 'object' || asked === null) return config;
    const actionFolder = resolvePath(folder, asked.action);
    const local = actionFolder && (await this.s.model.localActionAt(vscode.Uri.joinPath(actionFolder, ACTION_FILE)))?.action;
    if (!local?.metadata) {
      void vscode.window.showErrorMessage(
        serverText(`"action" must name an action folder (with a valid action.yaml); got ${JSON.stringify(asked.action)}.`, 300),
      );
      return undefined;
    }
    let inputs: unknown = asked.inputs;
    const setFile = resolvePath(folder, asked.inputSet);
    if (inputs === undefined && setFile) {
      const set = await readInputSet(setFile, local.metadata.parameters);
      if (set.problems.length > 0) {
        void vscode.window.showErrorMessage(doesNotFit(set, local.key));
        return undefined;
      }
      inputs = set.inputs;
    }
    inputs ??= await askInputs(`Debug ${serverText(local.key, 120)}`, local.metadata.parameters);
    if (inputs === undefined) return undefined;
    const run = await this.s.debug.launchConfig({ key: local.key, folder: local.folder, metadata: local.metadata, inputs });
    const { [ASKED]: _asked, ...rest } = config;
    return { ...rest, args: run.args as unknown, cwd: run.cwd as unknown, [RUN_ID]: run[RUN_ID] as unknown };
  }
}

/** An absolute path, or one relative to the workspace folder. */
function resolvePath(folder: vscode.WorkspaceFolder | undefined, value: unknown): vscode.Uri | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (value.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(value)) return vscode.Uri.file(value);
  return folder ? vscode.Uri.joinPath(folder.uri, value) : undefined;
}
