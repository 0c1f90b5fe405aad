import * as vscode from 'vscode';
import { type Services } from '../services';
import { METADATA_EDITOR_VIEW_TYPE, MetadataEditorProvider } from './provider';

export { METADATA_EDITOR_VIEW_TYPE, MetadataEditorProvider } from './provider';
export { FormSession, type FormChannel } from './session';

/** The metadata form on every action.yaml (package.json's customEditors names the same view type). */
export function registerMetadataEditor(services: Pick<Services, 'context' | 'log'>): vscode.Disposable {
  return vscode.window.registerCustomEditorProvider(METADATA_EDITOR_VIEW_TYPE, new MetadataEditorProvider(services), {
    // A form is cheap to rebuild from the document; keeping hidden ones alive would only cost memory.
    webviewOptions: { retainContextWhenHidden: false },
    supportsMultipleEditorsPerDocument: true,
  });
}
