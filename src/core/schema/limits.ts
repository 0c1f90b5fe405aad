/**
 * The rules the spec leaves "not shown", decided once. The sandbox enforces them, the form and the
 * YAML validation report them, and docs/metadata.md explains them.
 */
export const limits = {
  keyPattern: /^[A-Za-z][A-Za-z0-9_-]*$/,
  keyMaxLength: 64,
  nameMaxLength: 120,
  descriptionMaxLength: 4000,
  emailMaxLength: 254,
  parameterNamePattern: /^[A-Za-z_$][A-Za-z0-9_$]*$/,
  parameterNameMaxLength: 64,
  maxParameters: 50,
  choiceIdMaxLength: 64,
  choiceLabelMaxLength: 200,
  maxChoices: 200,
  propertyNamePattern: /^\S+$/,
  propertyNameMaxLength: 64,
  maxProperties: 100,
} as const;

/**
 * Names a parameter cannot have: it becomes an argument of `main` in strict-mode TypeScript, where
 * these are syntax errors as binding names.
 */
export const RESERVED_PARAMETER_NAMES: ReadonlySet<string> = new Set([
  'arguments',
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'eval',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'implements',
  'import',
  'in',
  'instanceof',
  'interface',
  'let',
  'new',
  'null',
  'package',
  'private',
  'protected',
  'public',
  'return',
  'static',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
]);

export const SIMPLE_TYPES = ['text', 'number', 'datetime', 'email'] as const;
export const ENVIRONMENTS = ['Test', 'Live'] as const;
