/**
 * Promote (docs/environments.md): what a source target's server runs, its metadata and code, sent to
 * a destination target as a deploy sends the workspace, never the working copy. The source's actions
 * are read into the shape of a workspace's (`WorkspaceAction`) and handed to the deploy pipeline
 * (./pipeline.ts) against the destination's base from the lock, so a change made at the destination
 * since its base holds the promote exactly as it holds a deploy.
 */
import { type CustomActionsClient, type ListedAction } from '../client';
import { serverText } from '../text';
import { type WorkspaceAction } from './pipeline';
import { serverMetadata } from './pull';

/** The client operations reading one action of the source. */
export type PromoteSourceClient = Pick<CustomActionsClient, 'getActionVersioned' | 'getImplementationVersioned'>;

const NOWHERE = { start: { line: 0, character: 0, offset: 0 }, end: { line: 0, character: 0, offset: 0 } };

/**
 * One action of the source as the destination's deploy takes it: its metadata checked as a pull checks
 * a server's (invalid metadata is refused, never sent), its code as the source holds it. `where` names
 * the source in the files a problem is told against (`staging:billing/greet/action.yaml`).
 */
export async function sourceAction(client: PromoteSourceClient, listed: ListedAction, where: string, signal?: AbortSignal): Promise<WorkspaceAction> {
  const o = signal ? { signal } : {};
  const [{ action }, { code }] = await Promise.all([client.getActionVersioned(listed.id, o), client.getImplementationVersioned(listed.id, o)]);
  const checked = serverMetadata(action, listed.key);
  return {
    key: listed.key,
    metadataFile: `${where}/${listed.key}/action.yaml`,
    codeFile: `${where}/${listed.key}/main.ts`,
    metadata: checked.ok ? checked.metadata : undefined,
    metadataProblems: checked.ok ? [] : [{ range: NOWHERE, message: serverText(checked.reason, 400) }],
    code,
  };
}
