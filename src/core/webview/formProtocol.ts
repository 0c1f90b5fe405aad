/**
 * The messages between the metadata form (webview) and its host (the custom editor). One module for
 * both sides, so a message that type-checks on one side is the message the other side validates.
 * The host treats every incoming message as untrusted: it is parsed here, never cast.
 */
import * as z from 'zod/mini';

/** A JSON value, bounded so a hostile or buggy webview cannot make the host recurse without end. */
const MAX_DEPTH = 32;
const MAX_MESSAGE_CHARS = 1_000_000;

const pathSegment = z.union([z.string(), z.number().check(z.int(), z.gte(0))]);

export const FormProblemSchema = z.object({
  path: z.array(pathSegment),
  message: z.string(),
});
export type FormProblem = z.infer<typeof FormProblemSchema>;

/** The metadata as the document holds it, valid or not: the form edits what is there. */
const documentValue = z.record(z.string(), z.unknown());

// ---- webview → host: intents ----

export const ReadyMessageSchema = z.object({ type: z.literal('ready') });

/**
 * The whole new value of the document, computed by the form from the state of `version` plus the
 * user's edits since. `seq` numbers the form's edits so the host can say which it has applied.
 */
export const EditMessageSchema = z.object({
  type: z.literal('edit'),
  version: z.number().check(z.int(), z.gte(0)),
  seq: z.number().check(z.int(), z.gte(1)),
  value: documentValue,
});

/** The user asked for the text editor (the YAML cannot be read, or they prefer it). */
export const OpenTextMessageSchema = z.object({ type: z.literal('openText') });

/** The answer to `flush`: every edit up to `seq` has been sent (an edit the form had held back included). */
export const FlushedMessageSchema = z.object({
  type: z.literal('flushed'),
  request: z.number().check(z.int(), z.gte(1)),
  seq: z.number().check(z.int(), z.gte(0)),
});

export const WebviewMessageSchema = z.discriminatedUnion('type', [ReadyMessageSchema, EditMessageSchema, OpenTextMessageSchema, FlushedMessageSchema]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;
export type EditMessage = z.infer<typeof EditMessageSchema>;
export type FlushedMessage = z.infer<typeof FlushedMessageSchema>;

// ---- host → webview: what the document says ----

export const StateMessageSchema = z.object({
  type: z.literal('state'),
  version: z.number(),
  /** The last edit of this form the host has handled; later edits are still on their way. */
  seq: z.number(),
  /** `external`: the change came from elsewhere (text editor, undo, revert, a rejected edit). */
  origin: z.enum(['form', 'external']),
  value: documentValue,
  problems: z.array(FormProblemSchema),
});

export const UnreadableMessageSchema = z.object({
  type: z.literal('unreadable'),
  version: z.number(),
  seq: z.number(),
  message: z.string(),
  /** 1-based, as people read them; absent when the problem has no place. */
  line: z.optional(z.number()),
  column: z.optional(z.number()),
});

/**
 * The document is about to be saved: the form sends the typing it holds back for a pause in typing
 * now, then answers `flushed`, so the save holds the last keystrokes.
 */
export const FlushMessageSchema = z.object({
  type: z.literal('flush'),
  request: z.number().check(z.int(), z.gte(1)),
});

export const HostMessageSchema = z.discriminatedUnion('type', [StateMessageSchema, UnreadableMessageSchema, FlushMessageSchema]);
export type HostMessage = z.infer<typeof HostMessageSchema>;
export type StateMessage = z.infer<typeof StateMessageSchema>;
export type UnreadableMessage = z.infer<typeof UnreadableMessageSchema>;
export type FlushMessage = z.infer<typeof FlushMessageSchema>;

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Validates a message from the webview; the reason is for the log, never shown to the webview. */
export function parseWebviewMessage(input: unknown): Parsed<WebviewMessage> {
  return parseWith(WebviewMessageSchema, input);
}

export function parseHostMessage(input: unknown): Parsed<HostMessage> {
  return parseWith(HostMessageSchema, input);
}

function parseWith<T>(schema: z.ZodMiniType<T>, input: unknown): Parsed<T> {
  const shape = checkJson(input);
  if (shape) return { ok: false, reason: shape };
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, message: parsed.data };
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? ` at ${first.path.map(String).join('.')}` : '';
  return { ok: false, reason: `${first?.message ?? 'invalid message'}${where}` };
}

/**
 * Messages arrive structured-cloned, so they may hold what JSON cannot (cycles, Dates, Maps,
 * undefined). The document only takes plain JSON, so anything else is refused whole.
 */
function checkJson(input: unknown): string | undefined {
  let chars = 0;
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): string | undefined => {
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels`;
    if (value === null || typeof value === 'boolean') return undefined;
    if (typeof value === 'string') {
      chars += value.length;
      return chars > MAX_MESSAGE_CHARS ? 'too large' : undefined;
    }
    if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'holds a number that is not finite';
    if (typeof value !== 'object') return `holds a ${typeof value}`;
    if (seen.has(value)) return 'holds a cycle or a shared object';
    seen.add(value);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (Array.isArray(value)) {
      for (const item of value) {
        const problem = visit(item, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    }
    if (proto !== Object.prototype && proto !== null) return 'holds an object that is not plain data';
    for (const [key, item] of Object.entries(value)) {
      chars += key.length;
      if (key === '__proto__') return 'holds a __proto__ key';
      const problem = visit(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(input, 0);
}
