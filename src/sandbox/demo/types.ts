import { type ActionMetadata } from '../../core/schema';

export interface DemoAction {
  metadata: ActionMetadata;
  code: string;
  /** Inputs (by name) of the runs recorded when the demo is seeded. */
  runs: Record<string, unknown>[];
}

export interface DemoApplication {
  id: string;
  name: string;
  folder: string;
  actions: DemoAction[];
}
