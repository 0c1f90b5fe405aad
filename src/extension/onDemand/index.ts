// The entry of dist/on-demand.js: what the extension loads on first use rather than at activation
// (loadOnDemand.ts). Whatever this reaches that activation also loads is taken from dist/extension.js.
import { type DebugOnDemand } from '../debug';
import { debugConfigurations } from '../debug/provider';
import { type DeployOnDemand } from '../deploy';
import { createOnServer } from '../deploy/create';
import { Deployer } from '../deploy/deployer';
import { DeployStatusItem } from '../deploy/statusItem';
import { MetadataQuickFixes } from '../deploy/quickFixes';
import { EventsPoller } from '../../core/events/poller';
import { type EventsOnDemand } from '../events/watchers';
import { type FormOnDemand } from '../form';
import { openMetadataForm } from '../form/panel';
import { pickAction } from '../commands/commands';

export { COMMANDS } from '../handlers/table';
export { testRuns } from '../testing/runs';
export { localDebug } from '../debug/localDebug';
export { treeHistory } from '../deploy/historyView';
export { createOnServer, debugConfigurations, Deployer, DeployStatusItem, EventsPoller, MetadataQuickFixes, openMetadataForm, pickAction };

// Each eager caller of loadOnDemand.ts names what it takes from here; this is where that is checked.
void ({
  createOnServer,
  debugConfigurations,
  Deployer,
  DeployStatusItem,
  EventsPoller,
  MetadataQuickFixes,
  openMetadataForm,
  pickAction,
} satisfies DebugOnDemand & DeployOnDemand & EventsOnDemand & FormOnDemand);
