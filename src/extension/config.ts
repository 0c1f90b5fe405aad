import * as vscode from 'vscode';
import { type NetworkConfig } from './networkOptions';

/** Every setting of the extension, read in one place and checked at run time. */
export const SETTINGS = {
  deployOnSave: 'customActions.deployOnSave',
  deployOnAutoSave: 'customActions.deploy.onAutoSave',
  warnAfterSeconds: 'customActions.deploy.warnAfterSeconds',
  pushWithErrors: 'customActions.pushWithErrors',
  requestTimeoutSeconds: 'customActions.requestTimeoutSeconds',
  recentEvents: 'customActions.tree.recentEvents',
  eventsQuietIntervalSeconds: 'customActions.events.quietIntervalSeconds',
  debugRuntimeExecutable: 'customActions.debug.runtimeExecutable',
} as const;

/**
 * What a save VS Code made by itself (files.autoSave: after a delay, on focus change) does.
 * `pushWhenValid`: push only code that passes the checks, and tell nothing but the status bar and
 * the Problems panel, so typing is never interrupted. `off`: only a save by hand pushes.
 */
export const AUTO_SAVE_MODES = ['pushWhenValid', 'off'] as const;
export type AutoSaveMode = (typeof AUTO_SAVE_MODES)[number];

export interface Config {
  readonly deployOnSave: boolean;
  readonly deployOnAutoSave: AutoSaveMode;
  /** How long an auto-save that fails the checks is said calmly before the status bar warns. */
  readonly warnAfterMs: number;
  readonly pushWithErrors: boolean;
  readonly requestTimeoutMs: number;
  readonly recentEvents: number;
  readonly eventsQuietIntervalMs: number;
  /** The Node that runs Debug; empty for the extension host's own runtime. */
  readonly debugRuntimeExecutable: string;
}

export function readConfig(scope?: vscode.ConfigurationScope): Config {
  const c = vscode.workspace.getConfiguration(undefined, scope);
  return {
    deployOnSave: bool(c.get(SETTINGS.deployOnSave), true),
    deployOnAutoSave: oneOf(c.get(SETTINGS.deployOnAutoSave), AUTO_SAVE_MODES, 'pushWhenValid'),
    warnAfterMs: 1000 * clamp(c.get(SETTINGS.warnAfterSeconds), 20, 1, 600),
    pushWithErrors: bool(c.get(SETTINGS.pushWithErrors), false),
    requestTimeoutMs: 1000 * clamp(c.get(SETTINGS.requestTimeoutSeconds), 30, 1, 600),
    recentEvents: clamp(c.get(SETTINGS.recentEvents), 20, 1, 200),
    eventsQuietIntervalMs: 1000 * clamp(c.get(SETTINGS.eventsQuietIntervalSeconds), 10, 10, 600),
    debugRuntimeExecutable: text(c.get(SETTINGS.debugRuntimeExecutable)),
  };
}

export function affectsConfig(event: vscode.ConfigurationChangeEvent): boolean {
  return Object.values(SETTINGS).some((key) => event.affectsConfiguration(key));
}

/** VS Code's own network settings, which the extension's requests follow as VS Code's do (networkOptions.ts). */
export const NETWORK_SETTINGS = {
  proxy: 'http.proxy',
  noProxy: 'http.noProxy',
  proxyStrictSSL: 'http.proxyStrictSSL',
  proxySupport: 'http.proxySupport',
  systemCertificates: 'http.systemCertificates',
} as const;

/**
 * The user's own values (else VS Code's defaults), never a workspace's: a cloned repository's
 * .vscode/settings.json must not route the key through a proxy of its choosing or turn certificate
 * checks off, whatever scope VS Code gives these settings.
 */
export function readNetworkConfig(): NetworkConfig {
  const c = vscode.workspace.getConfiguration();
  const user = (key: string): unknown => {
    const values = c.inspect(key);
    return values?.globalValue ?? values?.defaultValue;
  };
  return {
    proxy: text(user(NETWORK_SETTINGS.proxy)),
    noProxy: stringList(user(NETWORK_SETTINGS.noProxy)),
    proxyStrictSSL: bool(user(NETWORK_SETTINGS.proxyStrictSSL), true),
    proxySupport: text(user(NETWORK_SETTINGS.proxySupport)) || 'override',
    systemCertificates: bool(user(NETWORK_SETTINGS.systemCertificates), true),
  };
}

export function affectsNetworkConfig(event: vscode.ConfigurationChangeEvent): boolean {
  return Object.values(NETWORK_SETTINGS).some((key) => event.affectsConfiguration(key));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((a) => a === value) ?? fallback;
}

function clamp(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}
