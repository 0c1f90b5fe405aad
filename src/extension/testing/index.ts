import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { type Services } from '../services';
import { ActionTestTree } from './controller';
import { InputSetDiagnostics } from './diagnostics';
import { onDemand } from '../onDemand/load';
import { type ProfileKind, type TestRuns } from './runs';

/**
 * Input sets as tests in VS Code's Testing view: the tree of cases, their problems in the editor, and
 * three run profiles (Local, Test environment, Debug).
 */
export class TestingFeature extends Disposable {
  readonly diagnostics: InputSetDiagnostics;
  readonly tree: ActionTestTree;
  /** What the profiles run: loaded with the first run (onDemand). */
  private started: TestRuns | undefined;
  readonly profiles: Record<ProfileKind, vscode.TestRunProfile>;

  constructor(private readonly s: Services) {
    super();
    this.diagnostics = this.register(new InputSetDiagnostics(s.model));
    this.tree = this.register(new ActionTestTree(s.model, this.diagnostics));
    const controller = this.tree.controller;
    const profile = (kind: ProfileKind, label: string, type: vscode.TestRunProfileKind, isDefault: boolean) =>
      this.register(controller.createRunProfile(label, type, (request, token) => this.runs.run(kind, request, token), isDefault));
    this.profiles = {
      local: profile('local', 'Local', vscode.TestRunProfileKind.Run, true),
      server: profile('server', 'Test environment', vscode.TestRunProfileKind.Run, false),
      debug: profile('debug', 'Debug', vscode.TestRunProfileKind.Debug, true),
    };
  }

  get runs(): TestRuns {
    this.started ??= onDemand(this.s).testRuns(this.s, this.tree, this.diagnostics);
    return this.started;
  }
}
