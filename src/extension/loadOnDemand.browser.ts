import type * as vscode from 'vscode';
import * as OnDemand from './onDemand/index';

/**
 * In a browser the extension is one bundle (dist/browser.js): what Node loads from dist/on-demand.js
 * on first need is already there, since a browser's worker cannot require a file by its path.
 */
export function onDemand<Needed extends object>(_context: Pick<vscode.ExtensionContext, 'extensionUri'>): Needed {
  return OnDemand as unknown as Needed;
}
