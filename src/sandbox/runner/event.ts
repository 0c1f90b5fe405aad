import { randomUUID } from 'node:crypto';
import { type ActionEvent, type ActionMetadata } from '../../core/schema';
import { type RunOutcome } from './types';

/** The event of one run (spec §6): timings in ms, the logs, the inputs by name, and the result or the error. */
export function toEvent(outcome: RunOutcome, metadata: ActionMetadata, inputs: unknown[]): ActionEvent {
  const named = Object.fromEntries(metadata.parameters.map((p, i) => [p.name, inputs[i] ?? null]));
  return {
    id: randomUUID(),
    name: outcome.ok ? 'success' : 'failure',
    data: {
      timings: { duration: outcome.duration, startTime: outcome.startTime },
      logs: outcome.logs,
      inputs: named,
      ...(outcome.ok ? { result: outcome.result ?? null } : { error: outcome.error ?? { name: 'Error', message: 'the run failed' } }),
    },
  };
}
