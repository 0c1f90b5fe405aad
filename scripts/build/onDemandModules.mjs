// Which modules belong to dist/on-demand.js, and the check that none of them is in dist/extension.js.
// An ordinary import of one of them from eager code would move it, and all it alone reaches, into the
// bundle loaded at activation; nothing else would notice but the bench's bundle size. The unit test
// test/unit/build-on-demand-modules.test.ts builds the pair and runs this check.

export const EXTENSION_ENTRY = 'src/extension.ts';
export const ON_DEMAND_ENTRY = 'src/extension/onDemand/index.ts';

/**
 * The on-demand modules, beyond what the entry imports itself (which is on-demand by being there): a
 * path ending in `/` is a folder, all of it. A module that is no longer there is no error: the list
 * names what must stay out of extension.js, not what must exist.
 */
export const ON_DEMAND_MODULES = [
  ON_DEMAND_ENTRY,
  // Every command's handler.
  'src/extension/handlers/',
  'src/extension/commands/pick.ts',
  'src/extension/commands/commands.ts',
  'src/extension/debug/commands.ts',
  'src/extension/deploy/commands.ts',
  'src/extension/events/commands.ts',
  'src/extension/testing/commands.ts',
  'src/extension/pull/',
  'src/extension/replaceFile.ts',
  // Runs of events, with their input form and input sets.
  'src/extension/events/run.ts',
  'src/extension/events/inputForm.ts',
  'src/extension/events/inputSets.ts',
  'src/extension/events/lastInputs.ts',
  'src/extension/events/targets.ts',
  // The metadata form's panel (its custom editor's registration is eager).
  'src/extension/form/panel.ts',
  'src/extension/form/session.ts',
  'src/extension/form/html.ts',
  // Local debugging.
  'src/extension/debug/localDebug.ts',
  'src/extension/debug/localHarness.ts',
  'src/extension/debug/provider.ts',
  'src/extension/debug/launchConfig.ts',
  'src/extension/debug/outcome.ts',
  'src/extension/debug/eventSource.ts',
  // The Testing view's runs (its tree of tests is eager).
  'src/extension/testing/runs.ts',
  'src/sandbox/runner/local/harnessPool.ts',
  'src/extension/testing/serverRun.ts',
  'src/extension/testing/report.ts',
  'src/extension/testing/pin.ts',
  // The deploy history's view.
  'src/extension/deploy/historyView.ts',
  // The push pipeline of save to deploy, its feedback and the conflict tools, made on the first save.
  'src/extension/deploy/deployer.ts',
  'src/extension/deploy/statusItem.ts',
  'src/extension/deploy/create.ts',
  'src/extension/deploy/quickFixes.ts',
  'src/extension/deploy/feedback.ts',
  'src/extension/deploy/partRecord.ts',
  'src/extension/deploy/conflicts.ts',
  'src/extension/deploy/codeCheck.ts',
  'src/core/deploy/savePush.ts',
  'src/core/deploy/pushQueue.ts',
  // The events' polling loop, made by the first watch.
  'src/core/events/poller.ts',
  // Writing action.yaml and customactions.yaml (the form, a pull, a quick fix, Add Application):
  // activation only reads them.
  'src/core/workspace/yamlEdit.ts',
  'src/core/workspace/lineMerge.ts',
  'src/core/workspace/actionYamlEdit.ts',
  'src/core/workspace/projectFileEdit.ts',
];

/**
 * The on-demand modules found in extension.js, from the metafiles buildSplit returns: the listed ones,
 * and every module the on-demand entry imports itself.
 * @param {{ final: { outputs: Record<string, { entryPoint?: string, inputs: Record<string, unknown> }> }, onDemand: { inputs: Record<string, { imports: { path: string }[] }> } }} metafiles
 * @param {readonly string[]} [declared]
 * @returns {string[]}
 */
export function onDemandModulesInExtension(metafiles, declared = ON_DEMAND_MODULES) {
  const entryImports = (metafiles.onDemand.inputs[ON_DEMAND_ENTRY]?.imports ?? []).map((i) => i.path.replace(/^on-demand-host:/, ''));
  const onDemand = [...declared, ...entryImports];
  const belongs = (file) => onDemand.some((d) => (d.endsWith('/') ? file.startsWith(d) : file === d));
  const eager = Object.values(metafiles.final.outputs).flatMap((o) => Object.keys(o.inputs));
  return [...new Set(eager.filter(belongs))].sort();
}
