import * as vscode from 'vscode';
import { onDemand } from '../onDemand/load';
import { type Services } from '../services';
import { METADATA_EDITOR_VIEW_TYPE } from './viewType';

export { METADATA_EDITOR_VIEW_TYPE } from './viewType';

/**
 * The metadata form on every action.yaml, as a custom text editor: VS Code keeps the TextDocument, so
 * undo, redo, dirty state, save, revert and "Reopen Editor With…" stay native, and the form is one
 * more view of it. The form itself (panel.ts, session.ts) loads with the first one opened.
 */
export function registerMetadataEditor(services: Pick<Services, 'context' | 'log'>): vscode.Disposable {
  const provider: vscode.CustomTextEditorProvider = {
    resolveCustomTextEditor: (document, panel) => onDemand(services.context).openMetadataForm(services, document, panel),
  };
  return vscode.window.registerCustomEditorProvider(METADATA_EDITOR_VIEW_TYPE, provider, {
    // A form is cheap to rebuild from the document; keeping hidden ones alive would only cost memory.
    webviewOptions: { retainContextWhenHidden: false },
    supportsMultipleEditorsPerDocument: true,
  });
}
