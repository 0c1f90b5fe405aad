/**
 * The one definition of a custom action's metadata (spec §2.1–2.3). The TypeScript types, the
 * validator, the JSON Schema for action.yaml, the sandbox and the form all derive from it.
 * zod/mini: the same engine as zod with a tree-shakable API, a tenth of the size in the extension bundle.
 */
import * as z from 'zod/mini';
import { ENVIRONMENTS, limits, RESERVED_PARAMETER_NAMES, SIMPLE_TYPES } from './limits';

const nonEmpty = (max: number) => z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

export const SimpleTypeSchema = z
  .enum(SIMPLE_TYPES)
  .check(z.describe('A simple type: text, number, datetime (ISO 8601 string) or email (an e-mail address string).'));

export const ChoiceSchema = z.looseObject({
  id: nonEmpty(limits.choiceIdMaxLength).check(z.describe('Stable identifier of the choice; the value main receives.')),
  label: nonEmpty(limits.choiceLabelMaxLength).check(z.describe('What the user of the platform sees.')),
});

const choices = z.array(ChoiceSchema).check(
  z.minLength(1, 'needs at least one choice'),
  z.maxLength(limits.maxChoices, `at most ${limits.maxChoices} choices`),
  z.superRefine((list, ctx) => reportDuplicates(list, ctx, 'id', 'choice id'), { when: isArray }),
);

export const SingleChoiceTypeSchema = z.looseObject({ type: z.literal('single-choice'), choices });
export const MultipleSelectTypeSchema = z.looseObject({ type: z.literal('multiple-select'), choices });
export const CollectionTypeSchema = z.looseObject({ type: z.literal('collection'), items: SimpleTypeSchema });

export const ParameterTypeSchema = z.union([
  SimpleTypeSchema,
  z.discriminatedUnion('type', [SingleChoiceTypeSchema, MultipleSelectTypeSchema, CollectionTypeSchema]),
]);

const description = z.optional(z.string().check(z.maxLength(limits.descriptionMaxLength, `must be at most ${limits.descriptionMaxLength} characters`)));

export const ParameterSchema = z.looseObject({
  name: z.string().check(
    z.maxLength(limits.parameterNameMaxLength, `must be at most ${limits.parameterNameMaxLength} characters`),
    z.regex(limits.parameterNamePattern, 'must be an identifier (letters, digits, _ or $, not starting with a digit)'),
    z.refine((name) => !RESERVED_PARAMETER_NAMES.has(name), 'is a reserved word of TypeScript and cannot name an argument of main'),
    z.describe('The name of the argument of main.'),
  ),
  type: ParameterTypeSchema,
  description,
});

// A one-member discriminated union so a wrong object form is reported as an unknown type, like elsewhere.
export const PropertyTypeSchema = z.union([SimpleTypeSchema, z.discriminatedUnion('type', [CollectionTypeSchema])]);

export const ObjectTypeSchema = z.looseObject({
  type: z.literal('object'),
  properties: z
    .record(
      z
        .string()
        .check(
          z.maxLength(limits.propertyNameMaxLength, `property name must be at most ${limits.propertyNameMaxLength} characters`),
          z.regex(limits.propertyNamePattern, 'property name must not contain whitespace'),
        ),
      z.looseObject({ type: PropertyTypeSchema }),
    )
    .check(
      z.refine((p) => Object.keys(p).length >= 1, 'an object result needs at least one property'),
      z.refine((p) => Object.keys(p).length <= limits.maxProperties, `at most ${limits.maxProperties} properties`),
    ),
});

export const ResultTypeSchema = z.union([SimpleTypeSchema, z.discriminatedUnion('type', [CollectionTypeSchema, ObjectTypeSchema])]);

export const ResultSchema = z.looseObject({ type: ResultTypeSchema, description });

export const ActionMetadataSchema = z
  .looseObject({
    key: z.string().check(
      // An empty key also fails the pattern; one message is enough.
      z.minLength(1, { error: 'must not be empty', abort: true }),
      z.maxLength(limits.keyMaxLength, `must be at most ${limits.keyMaxLength} characters`),
      z.regex(limits.keyPattern, 'must start with a letter and hold only letters, digits, _ or -'),
      z.describe('Identifier-like short name, unique within the application.'),
    ),
    name: nonEmpty(limits.nameMaxLength).check(z.describe('Display name.')),
    description: z
      .string()
      .check(z.maxLength(limits.descriptionMaxLength, `must be at most ${limits.descriptionMaxLength} characters`), z.describe('What the action does.')),
    developerEmail: z
      .email('must be an e-mail address')
      .check(z.maxLength(limits.emailMaxLength, `must be at most ${limits.emailMaxLength} characters`), z.describe('Contact address of the developer.')),
    parameters: z.array(ParameterSchema).check(
      z.maxLength(limits.maxParameters, `at most ${limits.maxParameters} parameters`),
      z.superRefine((list, ctx) => reportDuplicates(list, ctx, 'name', 'parameter name'), { when: isArray }),
      z.describe('The values passed to main, in order.'),
    ),
    result: ResultSchema.check(z.describe('The output of the action.')),
  })
  .check(z.meta({ title: 'Custom action metadata', description: 'action.yaml: the metadata of one custom action.' }));

function isArray(payload: { value: unknown }): boolean {
  return Array.isArray(payload.value);
}

// Duplicates are reported even while other fields of the list are still wrong, so the form shows them at once.
function reportDuplicates(list: readonly unknown[], ctx: z.core.$RefinementCtx<unknown[]>, field: string, what: string): void {
  const seen = new Map<string, number>();
  list.forEach((item, index) => {
    const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined;
    if (typeof value !== 'string') return;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, index);
    else ctx.addIssue({ code: 'custom', path: [index, field], message: `duplicate ${what} "${value}" (also at [${first}])`, input: value });
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
