import { type DemoApplication } from './types';
import { type Store } from '../store/store';
import { type ActionRunner } from '../runner/types';
import { type SandboxLimits } from '../limits';

export const DEMO_APPLICATIONS: DemoApplication[] = [];

export async function seedDemo(store: Store, _runner: ActionRunner, _limits: SandboxLimits): Promise<{ id: string; name: string; key: string }[]> {
  const out = [];
  for (const app of [{ id: 'demo-crm', name: 'Demo CRM' }, { id: 'demo-helpdesk', name: 'Demo Helpdesk' }]) {
    const created = await store.ensureApplication(app.id, app.name);
    out.push({ id: created.id, name: created.name, key: created.key });
  }
  return out;
}
