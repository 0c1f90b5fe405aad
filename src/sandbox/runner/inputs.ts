import { type ActionMetadata, checkRunInputs, formatPath } from '../../core/schema';

export type InputProblem = { path: string; message: string };

/**
 * Run inputs against the declared parameters by the core's one rule (`checkRunInputs`, which every
 * client judges them by too), in parameter order; each problem at its path (`inputs[1]`, `inputs.amount`).
 */
export function checkInputs(metadata: ActionMetadata, inputs: unknown): { ok: true; values: unknown[] } | { ok: false; problems: InputProblem[] } {
  const checked = checkRunInputs(metadata.parameters, inputs);
  return checked.ok
    ? { ok: true, values: checked.values }
    : { ok: false, problems: checked.problems.map((p) => ({ path: formatPath(p.path), message: p.message })) };
}
