import type * as vscode from 'vscode';
import { projectHolding } from '../core/workspace';

/**
 * The project of `uri` among `projects`, by the core's rule (the nearest at or above it,
 * src/core/workspace/projects.ts), on the same scheme and authority. No `vscode` value import: the
 * model's unit tests run it in plain Node.
 */
export function projectAt<P extends { readonly root: vscode.Uri }>(projects: readonly P[], uri: vscode.Uri): P | undefined {
  const same = projects.filter((p) => p.root.scheme === uri.scheme && p.root.authority === uri.authority);
  const root = projectHolding(
    same.map((p) => p.root.path),
    uri.path,
  );
  return root === undefined ? undefined : same.find((p) => trimmed(p.root.path) === trimmed(root));
}

function trimmed(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
