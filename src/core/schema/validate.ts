import type * as z from 'zod/mini';
import { ActionMetadataSchema, type ActionMetadata } from './metadata';

export type PathSegment = string | number;

/** One thing wrong with a value, at a path such as `parameters[2].type.choices[0].id`. */
export interface Problem {
  readonly path: readonly PathSegment[];
  readonly message: string;
  /** The problem is with the name at the end of the path (an object result's property name), not its value. */
  readonly onKey?: boolean;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export function validateMetadata(input: unknown): Validation<ActionMetadata> {
  return validateWith(ActionMetadataSchema, input);
}

export function validateWith<S extends z.ZodMiniType>(schema: S, input: unknown): Validation<z.infer<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.flatMap((issue) => flatten(issue, [], input));
  return { ok: false, problems: dedupe(problems) };
}

/** `parameters[2].type.choices[0].id`: the form the docs, the form and the sandbox's errors use. */
export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

export function formatProblem(problem: Problem): string {
  const path = formatPath(problem.path);
  return path ? `${path}: ${problem.message}` : problem.message;
}

type Issue = z.core.$ZodIssue;

function flatten(issue: Issue, prefix: readonly PathSegment[], root: unknown): Problem[] {
  const path = [...prefix, ...(issue.path as PathSegment[])];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // A type is either a simple name or an object: report only the branch that fits the input's shape.
    const value = valueAt(root, path);
    if (value === undefined) return [{ path, message: 'required' }];
    const branches = issue.errors.filter((branch) => !isShapeMismatch(branch, value));
    const chosen = branches.length > 0 ? branches.reduce((a, b) => (b.length < a.length ? b : a)) : undefined;
    if (chosen) return chosen.flatMap((inner) => flatten(inner, path, root));
    return [{ path, message: typeof value === 'string' ? `unknown type "${value}"` : describeExpectedType(value) }];
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    const options = (issue as { options?: readonly unknown[] }).options ?? [];
    const value = valueAt(root, path);
    return [
      {
        path,
        message: `${value === undefined ? 'required' : `unknown ${issue.discriminator} ${JSON.stringify(value)}`}; expected one of ${options.map((o) => `"${String(o)}"`).join(', ')}`,
      },
    ];
  }
  if (issue.code === 'invalid_key' && issue.issues.length > 0) {
    return issue.issues.flatMap((inner) => flatten(inner, path, root).map((p) => ({ ...p, onKey: true })));
  }
  if (issue.code === 'invalid_element' && issue.issues.length > 0) {
    return issue.issues.flatMap((inner) => flatten(inner, path, root));
  }
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(root, path) === undefined) return [{ path, message: 'required' }];
  if (issue.code === 'invalid_type') return [{ path, message: `must be ${article(issue.expected)}` }];
  if (issue.code === 'invalid_value') {
    return [{ path, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` }];
  }
  if (issue.code === 'unrecognized_keys') return [{ path, message: `unknown field ${issue.keys.join(', ')}` }];
  return [{ path, message: issue.message }];
}

/** A branch that failed at its root only because the value has the other shape (string vs object). */
function isShapeMismatch(branch: readonly Issue[], value: unknown): boolean {
  const only = branch.length === 1 ? branch[0]! : undefined;
  if (!only || only.path.length > 0) return false;
  if (only.code === 'invalid_type') return true;
  return only.code === 'invalid_value' && typeof value === 'object' && value !== null;
}

function describeExpectedType(value: unknown): string {
  return value === undefined ? 'required' : 'must be a type name (text, number, datetime, email) or a type object';
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const id = formatProblem(p);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
