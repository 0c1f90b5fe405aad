import * as vscode from 'vscode';
import { minimalReplacement } from '../../core/webview/formState';
import { updateActionYaml } from '../../core/workspace';
import { type Parts } from '../parts';
import { loadAnalysis } from './analysisLoader';
import { fixableDiagnostics } from '../diagnosticSource';
import { actionYamlOf, isCodeFile, openDocument, readActionYaml } from './locate';

export const FROM_SIGNATURE = 'Update action.yaml from the signature';
export const FROM_METADATA = 'Update the signature from action.yaml';

/**
 * The two ways to settle a mismatch: the metadata follows the code, or the code follows the metadata.
 * In the on-demand bundle: deploy/index.ts registers the provider and makes this on the first ask that
 * comes with a diagnostic of ours.
 */
export class MetadataQuickFixes implements vscode.CodeActionProvider {
  constructor(private readonly s: Pick<Parts, 'context' | 'model'>) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const ours = fixableDiagnostics(context.diagnostics);
    if (ours.length === 0) return [];
    const file = await this.s.model.fileAt(document.uri);
    if (!file || !isCodeFile(file)) return [];
    const yaml = await readActionYaml(file.folder, 'current');
    if (!yaml?.metadata) return [];
    const analysis = loadAnalysis(this.s.context.extensionUri);
    const source = document.getText();
    const fixes: vscode.CodeAction[] = [];

    const metadata = analysis.metadataFromSignature(source, yaml.metadata, { fileName: file.name });
    if (metadata) {
      const replacement = minimalReplacement(yaml.text, updateActionYaml(yaml.text, metadata));
      if (replacement) {
        const uri = actionYamlOf(file.folder);
        // Offsets are those of the text read: the open document's when there is one, so positions agree.
        const open = openDocument(uri);
        const at = (offset: number) => (open ? open.positionAt(offset) : positionIn(yaml.text, offset));
        const fix = new vscode.CodeAction(FROM_SIGNATURE, vscode.CodeActionKind.QuickFix);
        fix.edit = new vscode.WorkspaceEdit();
        fix.edit.replace(uri, new vscode.Range(at(replacement.start), at(replacement.end)), replacement.text);
        fix.diagnostics = ours;
        fixes.push(fix);
      }
    }

    const edits = analysis.signatureFromMetadata(source, yaml.metadata, file.name);
    if (edits.length > 0) {
      const fix = new vscode.CodeAction(FROM_METADATA, vscode.CodeActionKind.QuickFix);
      fix.edit = new vscode.WorkspaceEdit();
      for (const e of edits) fix.edit.replace(document.uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.newText);
      fix.diagnostics = ours;
      fixes.push(fix);
    }
    return fixes;
  }
}

function positionIn(text: string, offset: number): vscode.Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return new vscode.Position(line, offset - (before.lastIndexOf('\n') + 1));
}
