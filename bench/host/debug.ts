import * as vscode from 'vscode';
import { type DebugRun } from '../../src/extension/debug/localDebug';
import { createDebugAction, StopTracker } from '../../test/host/debugAction';
import { emit, median, note } from '../lib';

const ROUNDS = 9;

/**
 * Debug Event's click to the stop at a breakpoint in main.ts: from the command (what the tree's
 * button runs) to the `stopped` event VS Code receives from the JavaScript debugger, on an event the
 * sandbox recorded, with a breakpoint on line 3. The first round (the JavaScript debugger activates,
 * Node and the harness load from disk) is reported apart from the others.
 */
export async function debugClick(): Promise<void> {
  const fixture = await createDebugAction('debug-bench');
  const tracker = new StopTracker();
  const times: number[] = [];
  try {
    const event = await fixture.runOnSandbox(7, 'ok');
    const node = await fixture.eventNode(event);
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(fixture.main, new vscode.Position(2, 0)))]);
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', node);
      if (!run) throw new Error('the debugger did not start');
      const stop = await tracker.of(run.session);
      times.push(performance.now() - started);
      tracker.stops.length = 0;
      await stop.session.customRequest('continue', { threadId: stop.threadId });
      await run.done;
      await vscode.commands.executeCommand('notifications.clearAll');
      note(`debug round ${i + 1}: click to stopped ${Math.round(times[i]!)} ms`);
    }
  } finally {
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    tracker.dispose();
    await fixture.remove();
  }
  const warm = times.slice(1);
  emit({
    bench: 'debug',
    metric: 'debug_event_click_to_stopped_ms_median',
    value: median(warm),
    target: 2000,
    unit: 'ms',
    note: `Debug Event on a recorded event to the stop at a breakpoint in main.ts; ${Math.round(Math.min(...warm))}–${Math.round(Math.max(...warm))} ms over ${warm.length}`,
  });
  emit({
    bench: 'debug',
    metric: 'debug_event_first_click_to_stopped_ms',
    value: times[0]!,
    target: 2000,
    unit: 'ms',
    note: 'the first Debug Event of the window (the JavaScript debugger activates)',
  });
}
