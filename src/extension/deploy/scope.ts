import { normalizeOrigin } from '../../core/deploy/scope';
import { type ProjectModel } from '../project';

/**
 * The server the project names now, as records are scoped to it (src/core/deploy/scope.ts): the same
 * text as the base URL the history records as a push's target. Undefined without a valid project.
 */
export function currentServer(project: Pick<ProjectModel, 'state'>): string | undefined {
  const state = project.state;
  return state.kind === 'ok' ? normalizeOrigin(state.baseUrl) : undefined;
}
