// Helpers of the test, events, run and sandbox suites: actions put on the sandbox with the core
// client (the command line's deploy is tested on its own), a command left running, a small XML reader.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type ListedAction } from '../../src/core/client';
import { type ActionMetadata } from '../../src/core/schema';
import { type Sandbox } from '../../src/sandbox';
import { CLI, keyOf } from './support';

/** Creates the action on the sandbox with its code, as a deploy would leave it. */
export async function putOnServer(sandbox: Sandbox, applicationId: string, metadata: ActionMetadata, code: string): Promise<ListedAction> {
  const client = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(keyOf(sandbox, applicationId)) });
  const created = await client.createAction(applicationId, metadata);
  await client.putImplementation(created.id, code);
  const listed = (await client.listActions(applicationId)).find((a) => a.id === created.id);
  if (!listed) throw new Error('the created action is not listed');
  return listed;
}

/** Writes `inputs/<name>.json` into an action folder. */
export function writeInputSet(actionFolder: string, name: string, content: unknown): void {
  mkdirSync(path.join(actionFolder, 'inputs'), { recursive: true });
  writeFileSync(path.join(actionFolder, 'inputs', `${name}.json`), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/** The built command left running (a follow, a sandbox), with what it has written so far. */
export class RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: readonly string[], options: { cwd: string; env?: Record<string, string>; cli?: string }) {
    this.child = spawn(process.execPath, [options.cli ?? CLI, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env } });
    this.child.stdout.setEncoding('utf8').on('data', (s: string) => (this.stdout += s));
    this.child.stderr.setEncoding('utf8').on('data', (s: string) => (this.stderr += s));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Ends it if a failed test left it running. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Control characters a terminal obeys (C0 but tab and line feed, DEL, C1): none may reach stdout. */
// eslint-disable-next-line no-control-regex -- these characters are what the check looks for
export const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/**
 * A small XML reader, enough to check the JUnit report's shape as CI reporters read it: elements,
 * attributes, text, entities; it throws on anything malformed (unclosed or mismatched tags, a bare
 * `&` or `<`, characters XML 1.0 forbids).
 */
export function parseXml(xml: string): XmlElement {
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)) throw new Error('a character XML 1.0 forbids');
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const token = /<\/([\w:-]+)\s*>|<([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(body)) !== null) {
    consumed = token.lastIndex;
    const [, close, open, attrs, selfClosing, text] = match;
    if (close) {
      const top = stack.pop();
      if (top?.name !== close) throw new Error(`</${close}> closes <${top?.name ?? 'nothing'}>`);
    } else if (open) {
      const element: XmlElement = { name: open, attributes: {}, children: [], text: '' };
      for (const a of (attrs ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)) element.attributes[a[1]!] = entities(a[2]!);
      if (stack.length > 0) stack.at(-1)!.children.push(element);
      else if (root) throw new Error('two root elements');
      else root = element;
      if (!selfClosing) stack.push(element);
    } else if (text !== undefined) {
      if (stack.length === 0) {
        if (text.trim()) throw new Error('text outside the root');
      } else stack.at(-1)!.text += entities(text);
    }
  }
  if (consumed !== body.length) throw new Error(`malformed XML at offset ${consumed}`);
  if (stack.length > 0 || !root) throw new Error('unclosed element');
  return root;
}

function entities(text: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(text)) throw new Error('a bare &');
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e.startsWith('#x') || e.startsWith('#X')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e]!,
  );
}
