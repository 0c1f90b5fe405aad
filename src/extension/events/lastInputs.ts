import { type Services } from '../services';

const LAST_INPUTS = 'customActions.lastRunInputs';

/** Which action remembered inputs belong to: the server's id when there is one, else the key. */
export interface InputsOwner {
  readonly remoteId: string | undefined;
  readonly key: string;
}

const slot = (owner: InputsOwner) => owner.remoteId ?? owner.key;

/** The inputs last entered in the form for this action (Run or Debug), to prefill it again; empty when none. */
export function lastInputs(s: Services, owner: InputsOwner): Record<string, unknown> {
  return s.context.workspaceState.get<Record<string, Record<string, unknown>>>(LAST_INPUTS, {})[slot(owner)] ?? {};
}

export async function rememberInputs(s: Services, owner: InputsOwner, values: Record<string, unknown>): Promise<void> {
  const remembered = s.context.workspaceState.get<Record<string, Record<string, unknown>>>(LAST_INPUTS, {});
  await s.context.workspaceState.update(LAST_INPUTS, { ...remembered, [slot(owner)]: values });
}
