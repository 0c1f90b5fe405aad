/**
 * How much of one event is read, and the walks that check it. JSON.parse takes any depth, but every
 * recursive walk after it (JSON.stringify among them) overflows the stack on a deep enough event, so
 * an event is measured first, without recursion, and read only within these limits.
 */
export const EVENT_LIMITS = {
  /** Nesting levels of one event (the event object is level 1). */
  depth: 64,
  /** Values in one event: objects, arrays, strings, numbers, booleans and nulls. */
  values: 250_000,
  /** Characters of all its strings and member names together. */
  chars: 16 * 1024 * 1024,
  /** Log entries read per event; the rest are counted. */
  logEntries: 2_000,
  /** Characters kept of one log message, error message or stack. */
  messageChars: 10_000,
  /** Characters kept of an event's name or a log entry's level. */
  labelChars: 100,
  /** An id longer than this is remembered by a fingerprint of it instead. */
  idChars: 256,
} as const;

/** Why an event is beyond the limits, or undefined when it can be read. */
export function whyUnreadable(value: unknown): string | undefined {
  let values = 1;
  let chars = 0;
  // Two stacks side by side rather than one of pairs: this runs for every event of every page.
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const v = pending.pop();
    const depth = depths.pop() ?? 1;
    if (typeof v === 'string') chars += v.length;
    else if (typeof v === 'object' && v !== null) {
      if (depth > EVENT_LIMITS.depth) return `nested deeper than ${EVENT_LIMITS.depth} levels`;
      const members = Array.isArray(v) ? v : Object.keys(v);
      // Counted before they are queued, so a huge list is refused without being copied.
      values += members.length;
      if (values > EVENT_LIMITS.values) return `more than ${count(EVENT_LIMITS.values)} values`;
      if (Array.isArray(v)) {
        for (const item of v) {
          pending.push(item);
          depths.push(depth + 1);
        }
      } else {
        for (const key of members as string[]) {
          chars += key.length;
          pending.push((v as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
    if (chars > EVENT_LIMITS.chars) return `larger than ${count(EVENT_LIMITS.chars)} characters`;
  }
  return undefined;
}

class Mark {
  constructor(readonly text: string) {}
}
const END_LIST = new Mark(']');
const END_OBJECT = new Mark('}');

/**
 * A 64-bit hash of the whole content, the same for the same JSON, at any depth: it stands in for an
 * id the server did not give (or one too long to remember), so a repeated poll finds the event known.
 */
export function fingerprint(value: unknown): string {
  // FNV-1a and the 31-multiplier string hash side by side: two independent 32-bit halves.
  let a = 0x811c9dc5;
  let b = 0;
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = (Math.imul(b, 31) + c) | 0;
    }
  };
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (v instanceof Mark) feed(v.text);
    else if (Array.isArray(v)) {
      feed('[');
      pending.push(END_LIST);
      for (let i = v.length - 1; i >= 0; i--) pending.push(v[i]);
    } else if (typeof v === 'object' && v !== null) {
      feed('{');
      pending.push(END_OBJECT);
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        pending.push(item, new Mark(`${JSON.stringify(key)}:`));
      }
    } else {
      // The comma keeps [1,2] apart from [12].
      feed(`${JSON.stringify(v) ?? 'null'},`);
    }
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

const PREVIEW = { depth: 6, members: 20, stringChars: 500, values: 1_000 };

/** The top of a value, small enough to show as JSON whatever it was: what can be read of an unreadable event. */
export function preview(value: unknown): unknown {
  let budget = PREVIEW.values;
  // Recursion is bounded by PREVIEW.depth, not by the input.
  const copy = (v: unknown, depth: number): unknown => {
    budget--;
    if (typeof v === 'string') return clip(v, PREVIEW.stringChars);
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= PREVIEW.depth || budget <= 0) return Array.isArray(v) ? '[…]' : '{…}';
    if (Array.isArray(v)) {
      const shown = v.slice(0, PREVIEW.members).map((item) => copy(item, depth + 1));
      return v.length > shown.length ? [...shown, `… ${count(v.length - shown.length)} more`] : shown;
    }
    const keys = Object.keys(v);
    const shown = keys.slice(0, PREVIEW.members).map((key) => [key, copy((v as Record<string, unknown>)[key], depth + 1)] as const);
    const more = keys.length - shown.length;
    // fromEntries defines members, so a "__proto__" member stays a member.
    return Object.fromEntries(more > 0 ? [...shown, ['…', `${count(more)} more members`]] : shown);
  };
  return copy(value, 0);
}

/** The text, cut to `max` characters with a note of how much was left out. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${count(text.length - max)} more characters)` : text;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
