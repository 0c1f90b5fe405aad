// The entry of dist/on-demand.js: what the extension loads on first use rather than at activation
// (load.ts). Whatever this reaches that activation also loads is taken from dist/extension.js.
export { COMMANDS } from '../handlers/table';
export { openMetadataForm } from '../form/panel';
export { testRuns } from '../testing/runs';
export { debugConfigurations } from '../debug/provider';
export { localDebug } from '../debug/localDebug';
export { treeHistory } from '../deploy/historyView';
export { Deployer } from '../deploy/deployer';
