import { type SandboxLimits } from '../limits';
import { toEvent } from '../runner/event';
import { checkInputs } from '../runner/inputs';
import { type ActionRunner } from '../runner/types';
import { type Store } from '../store/store';
import { DEMO_WORKSPACE } from './demoWorkspace.generated';

/**
 * Ensures the demo applications, each with a new key. An action whose key is missing is created with
 * its code, and each of its input sets is run once in Test and once in Live so the events lists are
 * not empty. Existing actions are left as they are: seeding again changes nothing but the keys.
 */
export async function seedDemo(store: Store, runner: ActionRunner, limits: SandboxLimits): Promise<{ id: string; name: string; key: string }[]> {
  const applications = [];
  for (const app of DEMO_WORKSPACE) {
    const created = await store.ensureApplication(app.id, app.name);
    applications.push({ id: created.id, name: created.name, key: created.key });
    const existing = new Set((await store.listActions(app.id)).map((a) => a.key));
    for (const demo of app.actions) {
      if (existing.has(demo.metadata.key)) continue;
      const action = await store.createAction(app.id, demo.metadata, limits.actionsPerApplication);
      await store.setImplementation(action.id, demo.code);
      for (const environment of ['Test', 'Live'] as const) {
        for (const inputs of demo.runs) {
          const checked = checkInputs(demo.metadata, inputs);
          if (!checked.ok) throw new Error(`demo ${app.id}/${demo.metadata.key}: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
          const outcome = await runner.run(demo.code, checked.values, created.id);
          await store.recordEvent(action.id, created.environments[environment], toEvent(outcome, demo.metadata, checked.values), limits.eventsPerEnvironment);
        }
      }
    }
  }
  return applications;
}
