import * as vscode from 'vscode';
import { onDemand } from '../loadOnDemand';
import { type openMetadataForm } from './panel';
import { type Parts } from '../parts';
import { METADATA_EDITOR_VIEW_TYPE } from './viewType';

export { METADATA_EDITOR_VIEW_TYPE } from './viewType';

/** What the form's eager part takes from the on-demand bundle. */
export interface FormOnDemand {
  readonly openMetadataForm: typeof openMetadataForm;
}

/**
 * The metadata form on every action.yaml, as a custom text editor: VS Code keeps the TextDocument, so
 * undo, redo, dirty state, save, revert and "Reopen Editor With…" stay native, and the form is one
 * more view of it. The form itself (panel.ts, session.ts) loads with the first one opened.
 */
export function registerMetadataEditor(services: Pick<Parts, 'context' | 'log'>): vscode.Disposable {
  const provider: vscode.CustomTextEditorProvider = {
    resolveCustomTextEditor: (document, panel) => onDemand<FormOnDemand>(services.context).openMetadataForm(services, document, panel),
  };
  return vscode.window.registerCustomEditorProvider(METADATA_EDITOR_VIEW_TYPE, provider, {
    // A form is cheap to rebuild from the document; keeping hidden ones alive would only cost memory.
    webviewOptions: { retainContextWhenHidden: false },
    supportsMultipleEditorsPerDocument: true,
  });
}
