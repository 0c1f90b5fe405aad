import type * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { NO_PROCESSES } from '../platform';
import { type Services } from '../services';
import type { DebugRun, DebugTarget, LocalDebug as NodeLocalDebug } from './localDebug';

export type { DebugRun, DebugTarget } from './localDebug';

export const localDebug = (_s: Pick<Services, 'config' | 'context' | 'runResults' | 'trust'>): LocalDebug => new LocalDebug();

/** Debugging runs main.ts in a Node process, which a browser cannot start: every way in says so. */
export class LocalDebug
  extends Disposable
  implements Pick<NodeLocalDebug, 'skeletonConfig' | 'launchConfig' | 'openLastResult' | 'compareLastWithRecorded' | 'debug'>
{
  skeletonConfig(_name: string, _cwd: string): vscode.DebugConfiguration {
    throw new Error(NO_PROCESSES);
  }

  launchConfig(_target: DebugTarget): Promise<vscode.DebugConfiguration> {
    return Promise.reject(new Error(NO_PROCESSES));
  }

  openLastResult(): Promise<boolean> {
    return Promise.reject(new Error(NO_PROCESSES));
  }

  compareLastWithRecorded(): Promise<boolean> {
    return Promise.reject(new Error(NO_PROCESSES));
  }

  debug(_target: DebugTarget): Promise<DebugRun | undefined> {
    return Promise.reject(new Error(NO_PROCESSES));
  }
}
