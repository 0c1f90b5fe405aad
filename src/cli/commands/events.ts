import { type Command, Option } from 'commander';
import { type NormalizedEvent } from '../../core/client';
import { byStartTime, EventsPoller, fetchNewest, formatEvent, type PollerStatus } from '../../core/events';
import { type Environment, ENVIRONMENTS } from '../../core/schema';
import { count, serverText } from '../../core/text';
import { parseEnvironment, type ServerAction, serverActions } from '../actions';
import { type CommandContext, describeFailure } from '../context';
import { CliError, EXIT, type ExitCode, worstExit } from '../exitCodes';
import { type EventFilter, matches, parseSince, parseStatus } from '../eventFilter';
import { type CommandDefinition } from './command';
import { eventJson } from './run';

/** Events asked of the server per environment when listing, before the filters pick. */
const LIST_FETCH = 100;

interface Source {
  readonly action: ServerAction;
  readonly environment: Environment;
  readonly eventsUrl: string;
  readonly label: string;
}

/** What a listing reads, in words: `2 actions on Test and Live`. */
function watched(sources: readonly Source[]): string {
  const actions = new Set(sources.map((s) => s.label)).size;
  const environments = ENVIRONMENTS.filter((e) => sources.some((s) => s.environment === e));
  return `${count(actions, 'action')} on ${environments.join(' and ')}`;
}

/** The events of actions per environment: listed, or followed as they come (--follow). */
export const events: CommandDefinition = {
  name: 'events',
  summary: 'list the events of actions per environment, filtered by status, text and time; --follow prints new ones as they come',
  listFields: {
    list: 'lines',
    fields: ['application', 'action', 'environment', 'id', 'name', 'ok', 'startTime', 'duration', 'result', 'error', 'logs', 'logsOmitted', 'unreadable'],
  },
  configure(command: Command) {
    command
      .argument('[actions...]', 'the actions (key, or application/key); default: every action on the server')
      .option('-a, --application <id...>', 'only these applications (ids of customactions.yaml)')
      .option('--env <environment>', 'only Test or only Live (default: both)')
      .option('--status <status>', 'only success or only failure')
      .option('--grep <text>', 'only events holding this text (in a log, the error or the result; any case)')
      .option('--since <when>', 'only events started since then: a duration back (15m, 1h, 2d) or an ISO date and time')
      .addOption(new Option('-n, --limit <count>', 'at most this many of the newest events per action and environment').default('20'))
      .option('-f, --follow', 'then keep printing new events as they come, until Ctrl+C')
      .addHelpText(
        'after',
        `
With --json every event is one JSON line on stdout: {"application", "action", "environment", "id",
"name", "ok", "startTime", "duration", "result", "error", "logs", ...}.

Examples:
  custom-actions events add --env Live --status failure --since 1h
  custom-actions events --follow --json | jq .`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const environments = options.env === undefined ? [...ENVIRONMENTS] : [parseEnvironment(String(options.env), '--env')];
    const limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 0) throw new CliError(EXIT.usage, `--limit must be a whole number, not "${String(options.limit)}".`);
    const filter: EventFilter = {
      status: parseStatus(options.status),
      ...(options.grep === undefined ? {} : { text: String(options.grep).toLowerCase() }),
      ...(options.since === undefined ? {} : { since: parseSince(String(options.since)) }),
    };
    const actions = await serverActions(context, operands, options.application);
    const sources: Source[] = [];
    for (const action of actions)
      for (const environment of environments) {
        const eventsUrl = action.listed.eventsUrls[environment];
        if (eventsUrl) sources.push({ action, environment, eventsUrl, label: `${action.application.id}/${action.listed.key}` });
      }
    if (sources.length === 0) context.out.info('No actions with events on the server.');
    return options.follow ? follow(context, sources, filter, limit) : list(context, sources, filter, limit);
  },
};

async function list(context: CommandContext, sources: readonly Source[], filter: EventFilter, limit: number): Promise<ExitCode> {
  const found: { source: Source; event: NormalizedEvent }[] = [];
  await Promise.all(
    sources.map(async (source) => {
      const client = await context.client(source.action.application);
      const newest = await fetchNewest(client, source.eventsUrl, LIST_FETCH);
      for (const event of newest.filter((e) => matches(e, filter)).slice(0, limit)) found.push({ source, event });
    }),
  );
  // One timeline, oldest first, as a log reads.
  found.sort((a, b) => byStartTime(a.event, b.event));
  for (const { source, event } of found) print(context, source, event);
  if (!context.out.json && sources.length > 0) context.out.info(`${count(found.length, 'event')} from ${watched(sources)}.`);
  return EXIT.ok;
}

async function follow(context: CommandContext, sources: readonly Source[], filter: EventFilter, limit: number): Promise<ExitCode> {
  const exits: ExitCode[] = [];
  let release = () => undefined as void;
  const ended = new Promise<boolean>((resolve) => {
    release = context.io.interrupts.on(() => resolve(true));
    if (sources.length === 0) resolve(false);
  });
  const pollers: EventsPoller[] = [];
  let running = sources.length;
  let allStopped = () => undefined as void;
  const stoppedByServer = new Promise<boolean>((resolve) => (allStopped = () => resolve(false)));
  for (const source of sources) {
    const client = await context.client(source.action.application);
    const poller: EventsPoller = new EventsPoller({
      eventsUrl: source.eventsUrl,
      api: () => Promise.resolve(client),
      keepRecent: Math.max(limit, LIST_FETCH),
      onEvents: (events) => {
        for (const event of events) if (matches(event, filter)) print(context, source, event);
      },
      onStatus: (status) => onStatus(context, source, status, exits, () => --running === 0 && allStopped()),
    });
    pollers.push(poller);
  }
  for (const poller of pollers) poller.start();
  // What happened before: the newest of each, once every baseline is in, then only what is new.
  await Promise.all(pollers.map((p) => p.whenReady()));
  const earlier = pollers.flatMap((p, i) =>
    p
      .recent(LIST_FETCH)
      .filter((e) => matches(e, filter))
      .slice(0, limit)
      .map((event) => ({ source: sources[i]!, event })),
  );
  earlier.sort((a, b) => byStartTime(a.event, b.event));
  for (const { source, event } of earlier) print(context, source, event);
  if (!context.out.json && sources.length > 0) context.out.info(`Following ${watched(sources)}; Ctrl+C to stop.`);
  // The reader of stdout going (`| head -1`) ends the follow: nobody reads what it would print.
  const readerGone = new Promise<'gone'>((resolve) => void context.io.stdoutGone?.().then(() => resolve('gone')));
  const interrupted = await Promise.race([ended, stoppedByServer, readerGone]);
  release();
  await Promise.all(pollers.map((p) => p.stop()));
  if (interrupted === 'gone') return worstExit(exits);
  if (interrupted) {
    context.out.info('Stopped following.');
    return EXIT.interrupted;
  }
  return worstExit(exits);
}

function onStatus(context: CommandContext, source: Source, status: PollerStatus, exits: ExitCode[], stopped: () => void): void {
  if (status.kind === 'retrying' && status.failures === 1)
    context.out.warn(`${serverText(source.label)} ${source.environment}: ${describeFailure(status.error).message}; retrying.`);
  if (status.kind === 'resumed') context.out.info(`${serverText(source.label)} ${source.environment}: reachable again.`);
  if (status.kind === 'stopped') {
    const failure = describeFailure(status.error);
    exits.push(failure.exitCode);
    context.out.error(`${serverText(source.label)} ${source.environment}: no longer followed: ${failure.message}`, failure.hint);
    stopped();
  }
}

/** A readable event (every piece of server text made visible, never obeyed), or one JSON line. */
function print(context: CommandContext, source: Source, event: NormalizedEvent): void {
  if (context.out.json) {
    context.out.jsonLine({ application: source.action.application.id, action: source.action.listed.key, environment: source.environment, ...eventJson(event) });
    return;
  }
  const lines = formatEvent(event, { environment: source.environment, actionKey: source.label });
  const { color } = context.out;
  context.out.line(event.ok ? lines[0]! : color.red(lines[0]!));
  for (const line of lines.slice(1)) context.out.line(line);
}
