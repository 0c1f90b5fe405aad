/**
 * The one definition of a custom action's metadata (spec §2.1–2.3). The TypeScript types, the
 * validator, the JSON Schema for action.yaml, the sandbox and the form all derive from it.
 */
import { z } from 'zod';
import { limits, SIMPLE_TYPES, ENVIRONMENTS } from './limits';

const nonEmpty = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const SimpleTypeSchema = z.enum(SIMPLE_TYPES).meta({
  description: 'A simple type: text, number, datetime (ISO 8601 string) or email (an e-mail address string).',
});

export const ChoiceSchema = z.looseObject({
  id: nonEmpty(limits.choiceIdMaxLength).describe('Stable identifier of the choice; the value main receives.'),
  label: nonEmpty(limits.choiceLabelMaxLength).describe('What the user of the platform sees.'),
});

const choices = z
  .array(ChoiceSchema)
  .min(1, 'needs at least one choice')
  .max(limits.maxChoices, `at most ${limits.maxChoices} choices`)
  .superRefine((list, ctx) => reportDuplicates(list, ctx, 'id', 'choice id'), { when: isArray });

export const SingleChoiceTypeSchema = z.looseObject({ type: z.literal('single-choice'), choices });
export const MultipleSelectTypeSchema = z.looseObject({ type: z.literal('multiple-select'), choices });
export const CollectionTypeSchema = z.looseObject({ type: z.literal('collection'), items: SimpleTypeSchema });

export const ParameterTypeSchema = z.union([
  SimpleTypeSchema,
  z.discriminatedUnion('type', [SingleChoiceTypeSchema, MultipleSelectTypeSchema, CollectionTypeSchema]),
]);

export const ParameterSchema = z.looseObject({
  name: z
    .string()
    .max(limits.parameterNameMaxLength, `must be at most ${limits.parameterNameMaxLength} characters`)
    .regex(limits.parameterNamePattern, 'must be an identifier (letters, digits, _ or $, not starting with a digit)'),
  type: ParameterTypeSchema,
  description: z.string().max(limits.descriptionMaxLength).optional(),
});

export const PropertyTypeSchema = z.union([SimpleTypeSchema, CollectionTypeSchema]);

export const ObjectTypeSchema = z.looseObject({
  type: z.literal('object'),
  properties: z
    .record(
      z
        .string()
        .max(limits.propertyNameMaxLength, `property name is longer than ${limits.propertyNameMaxLength} characters`)
        .regex(limits.propertyNamePattern, 'property name must not contain whitespace'),
      z.looseObject({ type: PropertyTypeSchema }),
    )
    .refine((p) => Object.keys(p).length >= 1, 'an object result needs at least one property')
    .refine((p) => Object.keys(p).length <= limits.maxProperties, `at most ${limits.maxProperties} properties`),
});

export const ResultTypeSchema = z.union([
  SimpleTypeSchema,
  z.discriminatedUnion('type', [CollectionTypeSchema, ObjectTypeSchema]),
]);

export const ResultSchema = z.looseObject({
  type: ResultTypeSchema,
  description: z.string().max(limits.descriptionMaxLength).optional(),
});

export const ActionMetadataSchema = z
  .looseObject({
    key: z
      .string()
      .min(1, 'must not be empty')
      .max(limits.keyMaxLength, `must be at most ${limits.keyMaxLength} characters`)
      .regex(limits.keyPattern, 'must start with a letter and hold only letters, digits, _ or -')
      .describe('Identifier-like short name, unique within the application.'),
    name: nonEmpty(limits.nameMaxLength).describe('Display name.'),
    description: z.string().max(limits.descriptionMaxLength).describe('What the action does.'),
    developerEmail: z
      .email('must be an e-mail address')
      .max(limits.emailMaxLength)
      .describe('Contact address of the developer.'),
    parameters: z
      .array(ParameterSchema)
      .max(limits.maxParameters, `at most ${limits.maxParameters} parameters`)
      .superRefine((list, ctx) => reportDuplicates(list, ctx, 'name', 'parameter name'), { when: isArray })
      .describe('The values passed to main, in order.'),
    result: ResultSchema.describe('The output of the action.'),
  })
  .meta({ title: 'Custom action metadata', description: 'action.yaml: the metadata of one custom action.' });

function isArray(payload: { value: unknown }): boolean {
  return Array.isArray(payload.value);
}

// Duplicates are reported even while other fields of the list are still wrong, so the form shows them at once.
function reportDuplicates(list: readonly unknown[], ctx: z.RefinementCtx, field: string, what: string): void {
  const seen = new Map<string, number>();
  list.forEach((item, index) => {
    const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined;
    if (typeof value !== 'string') return;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, index);
    else ctx.addIssue({ code: 'custom', path: [index, field], message: `duplicate ${what} "${value}" (also at [${first}])` });
  });
}

export const EnvironmentSchema = z.enum(ENVIRONMENTS);

export type SimpleType = z.infer<typeof SimpleTypeSchema>;
export type Choice = z.infer<typeof ChoiceSchema>;
export type SingleChoiceType = z.infer<typeof SingleChoiceTypeSchema>;
export type MultipleSelectType = z.infer<typeof MultipleSelectTypeSchema>;
export type CollectionType = z.infer<typeof CollectionTypeSchema>;
export type ParameterType = z.infer<typeof ParameterTypeSchema>;
export type Parameter = z.infer<typeof ParameterSchema>;
export type PropertyType = z.infer<typeof PropertyTypeSchema>;
export type ObjectType = z.infer<typeof ObjectTypeSchema>;
export type ResultType = z.infer<typeof ResultTypeSchema>;
export type Result = z.infer<typeof ResultSchema>;
export type ActionMetadata = z.infer<typeof ActionMetadataSchema>;
export type Environment = z.infer<typeof EnvironmentSchema>;
