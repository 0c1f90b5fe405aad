import * as vscode from 'vscode';
import { type Range } from '../core/workspace/positions';

/** A range of the core (lines and characters from 0, as the analysis and the YAML reader give them) in an editor. */
export function toRange(range: Range): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}
