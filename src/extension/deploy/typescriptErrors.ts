import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../diagnosticSource';
import { openDocument } from './locate';

/** The TypeScript extension's command for other extensions; it answers these two read-only requests. */
const TSSERVER_REQUEST = 'typescript.tsserverRequest';
const REQUESTS = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'] as const;
/** A cold TypeScript server loads its project before it answers; past this its published errors stand. */
const ANSWER_MS = 10_000;

/**
 * TypeScript's errors of the very text a push sends. The errors it published are those of whatever
 * text it last checked, a while after each change (it waits for a pause of 300–800 ms), so right after
 * typing they are the errors of the half-typed line: a save then would be refused on them and the
 * finished code pushed a moment later anyway. When errors are published, TypeScript is asked about
 * the text itself, and only the published errors it confirms count. Only confirmed: the editor's
 * TypeScript turns some of its errors into warnings (unused names, unreachable code), and a push
 * never refuses on more than the editor underlines.
 *
 * Undefined when nothing can be said of the text: the editor holds another one by now, and
 * TypeScript can only speak of that. No published error is taken at once, as before: an error
 * TypeScript finds in the new text shows in the Problems panel after the push.
 */
export async function typescriptErrorsOf(uri: vscode.Uri, text: string): Promise<readonly vscode.Diagnostic[] | undefined> {
  const published = errorsOf(uri);
  if (published.length === 0) return [];
  const open = openDocument(uri);
  // No editor: nothing was typed that TypeScript could lag behind.
  if (!open) return published;
  if (open.getText() !== text) return undefined;
  const version = open.version;
  const answer = await ask(uri);
  if (open.version !== version) return undefined;
  return answer ? confirmed(published, answer) : published;
}

/** The errors of a file that are not ours: TypeScript's (and any other checker's), as the editor underlines them. */
export function errorsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source !== DIAGNOSTIC_SOURCE);
}

/** What TypeScript says of the file's text now; undefined when it does not answer (not running, too old, busy past the limit). */
async function ask(uri: vscode.Uri): Promise<Answered[] | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ANSWER_MS)));
  const answers = Promise.all(
    REQUESTS.map((request) => vscode.commands.executeCommand<unknown>(TSSERVER_REQUEST, request, { file: uri }).then(answered, () => undefined)),
  );
  try {
    const all = await Promise.race([answers, late]);
    return all?.every((a) => a !== undefined) ? all.flat() : undefined;
  } finally {
    clearTimeout(timer);
  }
}

interface Answered {
  readonly code: string;
  readonly message: string;
  readonly range: vscode.Range;
}

/** The diagnostics of a TypeScript server response (checked: it comes from another extension), or undefined. */
function answered(response: unknown): Answered[] | undefined {
  const body = field(response, 'body');
  if (field(response, 'success') !== true || !Array.isArray(body)) return undefined;
  const found: Answered[] = [];
  for (const d of body as unknown[]) {
    const start = position(field(d, 'start'));
    const end = position(field(d, 'end'));
    const message = field(d, 'text');
    const code = field(d, 'code');
    if (start && end && typeof message === 'string' && typeof code === 'number')
      found.push({ code: String(code), message, range: new vscode.Range(start, end) });
  }
  return found;
}

/**
 * The published TypeScript errors the answer has too (same code and message), at the place the
 * answer gives, which is right for this text. Errors of other checkers are kept: they cannot be asked.
 */
function confirmed(published: readonly vscode.Diagnostic[], answer: readonly Answered[]): vscode.Diagnostic[] {
  const left = [...answer];
  const kept: vscode.Diagnostic[] = [];
  for (const d of published) {
    if (d.source !== 'ts') {
      kept.push(d);
      continue;
    }
    const i = left.findIndex((a) => a.code === codeOf(d) && a.message === d.message);
    if (i < 0) continue;
    const [match] = left.splice(i, 1);
    const error = new vscode.Diagnostic(match!.range, d.message, d.severity);
    error.source = d.source;
    error.code = d.code;
    kept.push(error);
  }
  return kept;
}

function codeOf(d: vscode.Diagnostic): string {
  return String(typeof d.code === 'object' ? d.code.value : d.code);
}

/** A protocol position (1-based line and offset) as a VS Code one. */
function position(value: unknown): vscode.Position | undefined {
  const line = field(value, 'line');
  const offset = field(value, 'offset');
  return Number.isInteger(line) && Number.isInteger(offset) && (line as number) >= 1 && (offset as number) >= 1
    ? new vscode.Position((line as number) - 1, (offset as number) - 1)
    : undefined;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
