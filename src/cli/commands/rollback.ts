import { type Command } from 'commander';
import { metadataFields } from '../../core/contentHash';
import { partDiffs, metadataText, readServerTexts } from '../../core/deploy/contentDiff';
import { codeHash, metadataHash } from '../../core/deploy/base';
import { type ActionOutcome, failedOutcome, type Outcome } from '../../core/deploy/outcome';
import { type PartPush, pushPart } from '../../core/deploy/pushPart';
import { parseVersionRef, versionRef } from '../../core/deploy/versionRows';
import { validateMetadata } from '../../core/schema/validate';
import { serverText } from '../../core/text';
import { serverActions } from '../actions';
import { confirm, protectedConfirmation } from '../confirm';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { applyOutcomes, readLock, writeLock } from '../lockFile';
import { diffLines, diffJson, exitOfOutcome, outcomeJson, outcomeLines } from '../render';
import { type CommandDefinition } from './command';

/**
 * Redeploys a kept version of an action's code or metadata (`history` lists them), as the editor's
 * Redeploy This Version does: by the road every deploy takes (core pushPart), against the base in
 * customactions.lock.json, so a server that moved since the base holds it (exit 4) unless --force;
 * confirmed first, and recorded in the lock as a deploy is (the server keeps it as a new version).
 */
export const rollback: CommandDefinition = {
  name: 'rollback',
  summary: "redeploy a kept version of an action's code or metadata (see history), never over a change made on the server",
  configure(command: Command) {
    command
      .argument('<action>', 'the action, by key or <application-id>/<key>')
      .argument('<version>', 'the version, as history names it: code@3, metadata@2 (a bare number when only one part has it)')
      .option('-a, --application <id...>', 'the application, when several could hold the key')
      .option('--dry-run', 'show what would change (the diff) and whether it would go, writing nothing')
      .option('--force', 'redeploy it even when the server changed since the base (asks first)')
      .addHelpText(
        'after',
        `
The version goes against the base recorded in customactions.lock.json, as a deploy's parts do: when
the server holds another version than the base, nothing is written (exit 4) unless --force. It asks
first (Go on? [y/N]); --yes answers beforehand, and without a terminal it refuses unless --yes.
The workspace's files are left as they are: a deploy would send them again; pull the action
(--force) to take the version into the workspace.

Examples:
  custom-actions history greet
  custom-actions rollback greet code@3 --dry-run
  custom-actions rollback greet code@3 --yes`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const [operand, refText] = operands as [string, string];
    const ref = parseVersionRef(refText);
    if (!ref) throw new CliError(EXIT.usage, `"${refText}" is not a version: give it as history names it (code@3, metadata@2).`);
    const dryRun = options.dryRun === true;
    const force = options.force === true;
    const project = await context.loadProject();
    const [action] = await serverActions(context, [operand], options.application);
    const { application, listed } = action!;
    const name = `${application.id}/${serverText(listed.key, 120)}`;
    const client = await context.client(application);
    const caps = await client.capabilities();
    if (!caps.versions)
      throw new CliError(
        EXIT.failed,
        `${(await context.server()).url} keeps no versions of its actions (it offers no versions extension): nothing to roll back to.`,
      );
    const kept = (await client.listVersions(listed.id)).filter((v) => v.version === ref.version && (ref.part === undefined || v.kind === ref.part));
    if (kept.length === 0) throw new CliError(EXIT.usage, `${name} has no version ${refText} on the server.`, `custom-actions history ${operand} lists them.`);
    if (kept.length > 1)
      throw new CliError(EXIT.usage, `${name} has ${kept.map((v) => versionRef(v.kind, v.version)).join(' and ')}: name the one to redeploy.`);
    const version = kept[0]!;
    const part = version.kind;
    const named = versionRef(part, version.version);
    const file = part === 'implementation' ? 'main.ts' : 'action.yaml';
    const content = await client.getVersion(listed.id, part, version.version);
    let text: string;
    let hash: string;
    let shown: string;
    if (content.kind === 'implementation') {
      text = content.code;
      hash = codeHash(text);
      shown = text;
    } else {
      // The server's bytes are checked as any metadata is before they are sent back, and never rename the action.
      const checked = validateMetadata(metadataFields(content.metadata));
      if (!checked.ok) throw new CliError(EXIT.failed, `${named} of ${name} is not valid metadata: ${serverText(checked.problems[0]?.message ?? '', 200)}.`);
      if (checked.value.key !== listed.key)
        throw new CliError(EXIT.usage, `${named} of ${name} names the key "${serverText(checked.value.key, 120)}": redeploying it would rename the action.`);
      text = JSON.stringify(checked.value);
      hash = metadataHash(checked.value);
      shown = metadataText(checked.value);
    }
    const lock = await readLock(project.root);
    const locked = lock.get(project.baseUrl, application.id, listed.key);
    const base = locked && locked.id === listed.id ? locked : undefined;
    const push: PartPush = { id: listed.id, part, content: text, hash, base: base?.[part], force: false, caps };

    // The plan: what the server holds now against the version, and whether it would go against the base.
    const label = { before: `server:${application.id}/${listed.key}/${file}`, after: `${named}:${application.id}/${listed.key}/${file}` };
    const [server, planned] = await Promise.all([
      readServerTexts(client, caps, listed.id, [part]),
      pushPart(client, { ...push, dryRun: true }).then((r) => r.outcome as Outcome),
    ]);
    const diffs = partDiffs([part], server, { [part]: shown }, { metadata: label, implementation: label });
    const lines = diffs.flatMap((d) => d.lines);
    const plan: ActionOutcome = { application: application.id, key: listed.key, id: listed.id, steps: [planned], base: undefined, dryRun: true };
    const held = planned.kind === 'held';
    const json = {
      action: { application: application.id, key: listed.key, id: listed.id },
      version: { ref: named, part, version: version.version },
      diff: diffJson({ [part]: lines }),
    };
    const show = (outcome: ActionOutcome) => {
      for (const line of outcomeLines(outcome, context.out.color)) context.out.line(line);
      for (const line of diffLines(lines, context.out.color)) context.out.line(line);
    };
    if (planned.kind === 'unchanged') {
      show(plan);
      context.out.info(`${name} already holds ${named} of its ${file}: nothing to roll back.`);
      context.out.result({ ok: true, dryRun, ...json, result: outcomeJson(plan) });
      return EXIT.ok;
    }
    if (dryRun || (held && !force)) {
      show(plan);
      if (held)
        context.out.info(
          `Nothing written: ${name}'s ${file} changed on the server since this repository's base. Look at it (custom-actions history ${operand}), then roll back with --force to replace it.`,
        );
      else context.out.info(`Dry run, nothing written: ${named} would replace the ${file} ${name} holds now.`);
      context.out.result({ ok: !held, dryRun, ...json, result: outcomeJson(plan) });
      return held ? EXIT.conflict : EXIT.ok;
    }

    show(plan);
    const target = project.target.target;
    const serverUrl = (await context.server()).url;
    const when = [version.createdAt ? `of ${version.createdAt}` : '', version.client ? `by ${serverText(version.client, 80)}` : ''].filter(Boolean).join(' ');
    const what =
      `Roll back ${name}'s ${file} on ${serverUrl} to ${named}${when ? ` (${when})` : ''}, replacing the version it holds now` +
      (held ? `, a change made on the server since this repository's base (--force)` : '') +
      '.';
    const again = `custom-actions rollback ${operand} ${refText}${force ? ' --force' : ''}${target.protected ? ` --target ${target.name}` : ''} --yes`;
    const confirmation = target.protected ? protectedConfirmation(context, target, what, { again }) : { what, again };
    if (!(await confirm(context, confirmation))) {
      context.out.result({ ok: false, dryRun, confirmed: false, ...json });
      return EXIT.no;
    }
    let outcome: ActionOutcome;
    try {
      const result = await pushPart(client, { ...push, force });
      outcome = {
        ...plan,
        dryRun: false,
        steps: [result.outcome],
        // Recorded as a deploy's part is: the version the server now holds is the part's base.
        base: result.base ? { ...base, id: listed.id, [part]: result.base } : undefined,
      };
    } catch (error) {
      outcome = { ...plan, dryRun: false, steps: [failedOutcome(part, error)] };
    }
    await writeLock(project.root, lock, applyOutcomes(lock, project.baseUrl, [outcome]));
    for (const line of outcomeLines(outcome, context.out.color)) context.out.line(line);
    const exit = exitOfOutcome(outcome);
    if (exit === EXIT.ok)
      context.out.info(
        `Rolled back ${name}'s ${file} to ${named}. The workspace's ${file} is as it was: a deploy would send it again; custom-actions pull ${operand} --force takes the rolled-back version into it.`,
      );
    context.out.result({ ok: exit === EXIT.ok, dryRun: false, ...json, result: outcomeJson(outcome) });
    return exit;
  },
};
