import { randomUUID } from 'node:crypto';
import { type TreeNode } from '../../src/extension/tree/nodes';
import { emit, median } from '../lib';
import { type Bench } from './setup';

const APP = 'other-app';
const ACTIONS = 5_000;

/**
 * Expanding an application with 5,000 actions: the list request, the merge with the workspace and a
 * TreeItem per child. The list is served by the proxy in the sandbox's exact shape (filling the
 * sandbox with 5,000 actions takes a minute); the sandbox's own time for it is the sandbox bench's.
 */
export async function bigApplication(b: Bench): Promise<void> {
  const environments = { Test: randomUUID(), Live: randomUUID() };
  const entries = Array.from({ length: ACTIONS }, (_, i) => {
    const id = randomUUID();
    const events = (env: string) => `/api/actions/${id}/environments/${env}/events`;
    return {
      key: `bench-${i}`,
      name: `Action bench-${i}`,
      description: 'Adds one.',
      id,
      eventsUrls: { Test: events(environments.Test), Live: events(environments.Live) },
    };
  });
  b.proxy.fixed.set(`/api/application/${APP}/actions`, { contentType: 'application/vnd.restful+json; charset=utf-8', body: JSON.stringify(entries) });
  const key = await b.services.keys.get(b.base, APP);
  if (!key) await b.services.keys.set(b.base, APP, 'bench-key-of-the-other-app');
  try {
    const roots = await b.services.tree.getChildren();
    const node = roots.find((n) => n.kind === 'application' && n.app.id === APP);
    if (!node) throw new Error(`no ${APP} in the tree`);
    const times: number[] = [];
    let first = 0;
    for (let i = 0; i < 8; i++) {
      b.services.model.refresh();
      const started = performance.now();
      const children: TreeNode[] = await b.services.tree.getChildren(node);
      const items = children.map((c) => b.services.tree.getTreeItem(c));
      const ms = performance.now() - started;
      if (items.filter((it) => it.label !== undefined).length < ACTIONS) throw new Error(`${items.length} children for ${ACTIONS} actions`);
      if (i === 0) first = ms;
      else times.push(ms);
    }
    emit({
      bench: 'tree',
      metric: 'expand_5000_actions_ms_median',
      value: median(times),
      target: 300,
      unit: 'ms',
      note: `first ${Math.round(first)} ms; list served by the proxy`,
    });
  } finally {
    b.proxy.fixed.clear();
    b.services.model.refresh();
  }
}
