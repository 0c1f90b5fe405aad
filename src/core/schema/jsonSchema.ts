import * as z from 'zod/mini';
import { ActionMetadataSchema } from './metadata';
import { ProjectFileSchema } from './project';

/** JSON Schemas for editor validation and completion of action.yaml and customactions.yaml, made at build time. */
export function actionJsonSchema(): object {
  return { $id: 'https://custom-actions.dev/schemas/action.schema.json', ...z.toJSONSchema(ActionMetadataSchema, { io: 'input', unrepresentable: 'any' }) };
}

export function projectJsonSchema(): object {
  return { $id: 'https://custom-actions.dev/schemas/project.schema.json', ...z.toJSONSchema(ProjectFileSchema, { io: 'input', unrepresentable: 'any' }) };
}
