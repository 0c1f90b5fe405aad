import { type CapabilityIndex } from '../../core/schema';
import { type SandboxLimits } from '../limits';
import { VERSIONS_KEPT } from '../store/versions';

export const SERVICE_NAME = 'custom-actions-sandbox';
export const SERVICE_VERSION = '1';

export function capabilityIndex(limits: SandboxLimits): CapabilityIndex {
  return {
    service: SERVICE_NAME,
    version: SERVICE_VERSION,
    extensions: {
      getAction: true,
      getImplementation: true,
      run: true,
      eventsPaging: { limitParam: 'limit', cursorParam: 'cursor', maxLimit: limits.maxPageSize },
      eventsLongPoll: { waitParam: 'wait', maxWaitSeconds: limits.maxWaitSeconds },
      conditionalWrites: { header: 'If-Match', resources: ['metadata', 'implementation'], firstWrite: 'If-None-Match' },
      versions: { maxKeptPerKind: VERSIONS_KEPT },
    },
  };
}
