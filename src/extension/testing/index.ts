import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { PLATFORM } from '../platform';
import { type ActionsModel } from '../model';
import { ActionTestTree } from './controller';
import { InputSetDiagnostics } from './diagnostics';
import { type ProfileKind, type TestRuns } from './runs';

export { type ProfileKind } from './runs';

/**
 * The door of the Testing view's feature: what VS Code itself is handed (the controller and the three
 * run profiles). Its tree, problems and runs stay inside.
 */
export interface Testing {
  readonly controller: vscode.TestController;
  /** Local and Debug need a process: not offered in VS Code for the Web (platform.ts). */
  readonly profiles: Readonly<Partial<Record<ProfileKind, vscode.TestRunProfile>>>;
}

/** Makes the runs on first use: their code is in the on-demand bundle (loadOnDemand.ts). */
export type TestRunsFactory = (tree: ActionTestTree, diagnostics: InputSetDiagnostics) => TestRuns;

/**
 * Input sets as tests in VS Code's Testing view: the tree of cases, their problems in the editor, and
 * three run profiles (Local, Test environment, Debug; in VS Code for the Web only Test environment).
 */
export class TestingFeature extends Disposable implements Testing {
  readonly controller: vscode.TestController;
  readonly profiles: Partial<Record<ProfileKind, vscode.TestRunProfile>>;
  private readonly diagnostics: InputSetDiagnostics;
  private readonly tree: ActionTestTree;
  /** What the profiles run: made by the first run. */
  private started: TestRuns | undefined;

  constructor(
    model: ActionsModel,
    private readonly makeRuns: TestRunsFactory,
  ) {
    super();
    this.diagnostics = this.register(new InputSetDiagnostics(model));
    this.tree = this.register(new ActionTestTree(model, this.diagnostics));
    this.controller = this.tree.controller;
    const profile = (kind: ProfileKind, label: string, type: vscode.TestRunProfileKind, isDefault: boolean) =>
      this.register(this.controller.createRunProfile(label, type, (request, token) => this.runs().run(kind, request, token), isDefault));
    this.profiles = PLATFORM.processes
      ? {
          local: profile('local', 'Local', vscode.TestRunProfileKind.Run, true),
          server: profile('server', 'Test environment', vscode.TestRunProfileKind.Run, false),
          debug: profile('debug', 'Debug', vscode.TestRunProfileKind.Debug, true),
        }
      : { server: profile('server', 'Test environment', vscode.TestRunProfileKind.Run, true) };
  }

  private runs(): TestRuns {
    this.started ??= this.makeRuns(this.tree, this.diagnostics);
    return this.started;
  }
}
