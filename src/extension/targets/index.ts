import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { type Events } from '../events';
import { Disposable } from '../lifecycle';
import { type Parts } from '../parts';
import { type FoundProject, type Project } from '../project';
import { type Testing } from '../testing';

/** Set while the project file names targets: Switch Target and Promote are offered then only. */
export const HAS_TARGETS_CONTEXT = 'customActions.hasTargets';

const SERVER_PROFILE = 'Test environment';

/** The view's name in package.json, which its title goes back to when no one target stands for the view. */
const VIEW_NAME = 'Custom Actions';

/**
 * The active target where the user looks besides the status bar (statusBar.ts): the view's title, which
 * VS Code shows as "Custom Actions: <target>" while the view is alone in its container (a description
 * would be hidden there; a workspace of several projects says it on each project's row instead), the Testing view's server
 * profile, and what a switch ends. The events watched on a project's previous target stop with a line
 * in the channel, since their pollers read that target's server; the tree and the model read the new
 * one through the project's change event (model/index.ts).
 */
export class ActiveTarget extends Disposable {
  /** The target last seen per project (by its file), as `<target>\n<server>`: a change of it is a switch. */
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly s: Pick<Parts, 'project' | 'log'> & {
      readonly treeView: Pick<vscode.TreeView<unknown>, 'title'>;
      readonly events: Pick<Events, 'list' | 'unwatch' | 'note'>;
      readonly testing: Pick<Testing, 'profiles'>;
    },
  ) {
    super();
    this.register(s.project.onDidChange(() => this.show(s.project.projects)));
    this.show(s.project.projects);
  }

  private show(projects: readonly FoundProject[]): void {
    const withTargets = projects.filter((p): p is Project => p.kind === 'ok' && p.hasTargets);
    void vscode.commands.executeCommand('setContext', HAS_TARGETS_CONTEXT, withTargets.length > 0);
    // With several projects each row says its own target; the view's title names one only when there is one.
    const only = projects.length === 1 ? withTargets[0] : undefined;
    const named = only?.target.target;
    this.s.treeView.title = named ? serverText(`${named.name}${named.protected ? ' (protected)' : ''}`, 80) : VIEW_NAME;
    const profile = this.s.testing.profiles.server;
    if (profile) profile.label = named ? serverText(`${SERVER_PROFILE} (${named.name})`, 80) : SERVER_PROFILE;
    for (const state of projects) if (state.kind === 'ok') this.follow(state, projects.length > 1);
  }

  private follow(state: Project, several: boolean): void {
    const where = several ? ` of ${state.name}` : '';
    if (state.forgottenTarget !== undefined) {
      const message = `The target ${state.forgottenTarget} is no longer in customactions.yaml${where}: the editor works on ${state.target.target.name}, the file's default.`;
      this.s.log.info(message);
      void vscode.window.showInformationMessage(serverText(message));
    }
    const key = state.uri.toString();
    const now = `${state.target.target.name}\n${state.baseUrl}`;
    const before = this.seen.get(key);
    this.seen.set(key, now);
    // Only this project's watches read the previous target's server.
    const watched = this.s.events.list().filter((w) => w.app.project.root.toString() === state.root.toString());
    if (before === undefined || before === now || watched.length === 0) return;
    this.s.events.note(`-- The target${where} is now ${state.target.target.name}: stopped watching ${watched.length} environment(s) of the previous target`);
    for (const watch of watched) void this.s.events.unwatch(watch.id, true);
  }
}
