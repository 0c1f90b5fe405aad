import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { type Events } from '../events';
import { Disposable } from '../lifecycle';
import { type Parts } from '../parts';
import { type ProjectState } from '../project';
import { type Testing } from '../testing';

/** Set while the project file names targets: Switch Target and Promote are offered then only. */
export const HAS_TARGETS_CONTEXT = 'customActions.hasTargets';

const SERVER_PROFILE = 'Test environment';

/**
 * The active target where the user looks besides the status bar (statusBar.ts): the view's description,
 * the Testing view's server profile, and what a switch ends. The events watched on the previous target
 * stop with a line in the channel, since their pollers read that target's server; the tree and the
 * model read the new one through the project's change event (model/index.ts).
 */
export class ActiveTarget extends Disposable {
  /** The target last seen, as `<project file>\n<target>\n<server>`: a change of it is a switch. */
  private seen: string | undefined;

  constructor(
    private readonly s: Pick<Parts, 'project' | 'log'> & {
      readonly treeView: Pick<vscode.TreeView<unknown>, 'description'>;
      readonly events: Pick<Events, 'list' | 'unwatchAll' | 'note'>;
      readonly testing: Pick<Testing, 'profiles'>;
    },
  ) {
    super();
    this.register(s.project.onDidChange((state) => this.show(state)));
    this.show(s.project.state);
  }

  private show(state: ProjectState): void {
    const named = state.kind === 'ok' && state.hasTargets ? state.target.target : undefined;
    void vscode.commands.executeCommand('setContext', HAS_TARGETS_CONTEXT, named !== undefined);
    this.s.treeView.description = named ? serverText(`${named.name}${named.protected ? ' (protected)' : ''}`, 80) : undefined;
    const profile = this.s.testing.profiles.server;
    if (profile) profile.label = named ? serverText(`${SERVER_PROFILE} (${named.name})`, 80) : SERVER_PROFILE;
    if (state.kind === 'ok' && state.forgottenTarget !== undefined) {
      const message = `The target ${state.forgottenTarget} is no longer in customactions.yaml: the editor works on ${state.target.target.name}, the file's default.`;
      this.s.log.info(message);
      void vscode.window.showInformationMessage(serverText(message));
    }
    // A file being edited may be invalid for a moment: the target seen before it stays the one compared with.
    if (state.kind !== 'ok') return;
    const now = `${state.uri.toString()}\n${state.target.target.name}\n${state.baseUrl}`;
    const before = this.seen;
    this.seen = now;
    const watched = this.s.events.list().length;
    if (before === undefined || before === now || watched === 0) return;
    this.s.events.note(`-- The target is now ${state.target.target.name}: stopped watching ${watched} environment(s) of the previous target`);
    void this.s.events.unwatchAll(true);
  }
}
