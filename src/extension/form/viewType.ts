/** The metadata form's custom editor; package.json's customEditors names the same view type. */
export const METADATA_EDITOR_VIEW_TYPE = 'customActions.metadataEditor';
