import * as vscode from 'vscode';

/** Every setting of the extension, read in one place and checked at run time. */
export const SETTINGS = {
  deployOnSave: 'customActions.deployOnSave',
  pushWithErrors: 'customActions.pushWithErrors',
  requestTimeoutSeconds: 'customActions.requestTimeoutSeconds',
  recentEvents: 'customActions.tree.recentEvents',
  eventsQuietIntervalSeconds: 'customActions.events.quietIntervalSeconds',
} as const;

export interface Config {
  readonly deployOnSave: boolean;
  readonly pushWithErrors: boolean;
  readonly requestTimeoutMs: number;
  readonly recentEvents: number;
  readonly eventsQuietIntervalMs: number;
}

export function readConfig(scope?: vscode.ConfigurationScope): Config {
  const c = vscode.workspace.getConfiguration(undefined, scope);
  return {
    deployOnSave: bool(c.get(SETTINGS.deployOnSave), true),
    pushWithErrors: bool(c.get(SETTINGS.pushWithErrors), false),
    requestTimeoutMs: 1000 * clamp(c.get(SETTINGS.requestTimeoutSeconds), 30, 1, 600),
    recentEvents: clamp(c.get(SETTINGS.recentEvents), 20, 1, 200),
    eventsQuietIntervalMs: 1000 * clamp(c.get(SETTINGS.eventsQuietIntervalSeconds), 10, 10, 600),
  };
}

export function affectsConfig(event: vscode.ConfigurationChangeEvent): boolean {
  return Object.values(SETTINGS).some((key) => event.affectsConfiguration(key));
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function clamp(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}
