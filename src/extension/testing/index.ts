import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { type Services } from '../services';
import { ActionTestTree } from './controller';
import { InputSetDiagnostics } from './diagnostics';
import { pinEventAsTest } from './pin';
import { type ProfileKind, TestRuns } from './runs';

/** The testing commands, merged into the command table by activate. */
export const TESTING_COMMANDS = {
  'customActions.pinEventAsTest': pinEventAsTest,
} satisfies Record<string, (s: Services, ...args: never[]) => unknown>;

/**
 * Input sets as tests in VS Code's Testing view: the tree of cases, their problems in the editor, and
 * three run profiles (Local, Test environment, Debug).
 */
export class TestingFeature extends Disposable {
  readonly diagnostics: InputSetDiagnostics;
  readonly tree: ActionTestTree;
  readonly runs: TestRuns;
  readonly profiles: Record<ProfileKind, vscode.TestRunProfile>;

  constructor(s: Services) {
    super();
    this.diagnostics = this.register(new InputSetDiagnostics(s.model));
    this.tree = this.register(new ActionTestTree(s.model, this.diagnostics));
    this.runs = new TestRuns(s, this.tree, this.diagnostics);
    const controller = this.tree.controller;
    const profile = (kind: ProfileKind, label: string, type: vscode.TestRunProfileKind, isDefault: boolean) =>
      this.register(controller.createRunProfile(label, type, (request, token) => this.runs.run(kind, request, token), isDefault));
    this.profiles = {
      local: profile('local', 'Local', vscode.TestRunProfileKind.Run, true),
      server: profile('server', 'Test environment', vscode.TestRunProfileKind.Run, false),
      debug: profile('debug', 'Debug', vscode.TestRunProfileKind.Debug, true),
    };
  }
}
