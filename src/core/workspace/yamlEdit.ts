import { isMap, isNode, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { commonSubsequence, sameData } from './lcs';
import { mergeLines } from './lineMerge';
import { type ParsedYaml } from './yamlDocument';

// The editing half of YAML documents, apart from their reading (yamlDocument.ts): only a write of
// action.yaml or customactions.yaml needs it, so the extension's activation does not load it.

/** How the author indents, so what the library prints lines up with the text it is merged into. */
export interface YamlStyle {
  readonly indent: number;
  /** Whether a sequence under a mapping key is indented (`key:\n  - a`) or not (`key:\n- a`). */
  readonly indentSeq: boolean;
  /** Files written on Windows keep their CRLF line ends. */
  readonly eol: '\n' | '\r\n';
}

export function inferStyle(text: string): YamlStyle {
  const nested = /^([ \t]*)[^\s#-][^\n]*:[ \t]*(?:#[^\n]*)?\r?\n([ ]*)(-?)/gm;
  let indent: number | undefined;
  let indentSeq: boolean | undefined;
  for (let match = nested.exec(text); match && (indent === undefined || indentSeq === undefined); match = nested.exec(text)) {
    const depth = match[2]!.length - match[1]!.length;
    if (match[3] === '-') indentSeq ??= depth > 0;
    else if (depth > 0) indent ??= depth;
    if (match[3] === '-' && depth > 0) indent ??= depth;
  }
  return { indent: indent ?? 2, indentSeq: indentSeq ?? true, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

export function printYaml(doc: Document, style: YamlStyle): string {
  const text = doc.toString({ lineWidth: 0, indent: style.indent, indentSeq: style.indentSeq });
  return style.eol === '\n' ? text : text.replace(/\n/g, style.eol);
}

/**
 * Applies `edit` to the document of `text` and returns the new text, changed only where the edit
 * changed something: the library's print of the edit is merged into the author's text line by line,
 * and the merge is kept only if it reads back to exactly the edited value (otherwise the plain print,
 * which still keeps comments and order, is returned).
 */
export function editYaml(parsed: ParsedYaml, text: string, edit: (doc: Document) => void): string {
  const style = inferStyle(text);
  const before = printYaml(parsed.doc, style);
  edit(parsed.doc);
  const after = printYaml(parsed.doc, style);
  if (after === before) return text;
  const merged = mergeLines(before, text, after);
  if (merged !== undefined && readsAs(merged, parsed.doc.toJS({ maxAliasCount: 100 }))) return merged;
  return after;
}

function readsAs(text: string, expected: unknown): boolean {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return false;
  try {
    return sameData(doc.toJS({ maxAliasCount: 100 }), expected);
  } catch {
    return false;
  }
}

/**
 * Brings a document to a new value with the smallest change: untouched parts keep their comments,
 * quoting and order; fields the new value lacks are removed; new fields go after the field that
 * precedes them in the new value; list items are matched by their `name` or `id` (or whole value),
 * so removing or inserting one keeps the comments of the others with them.
 */
export function applyValue(doc: Document, value: unknown): void {
  doc.contents = reconcile(doc, doc.contents, value) as Node;
}

function reconcile(doc: Document, node: unknown, next: unknown): unknown {
  // The form's values cross JSON on their way out and back (postMessage): .inf and .nan return as
  // null, integers beyond 2^53 rounded, aliases expanded. A node that reads as `next` once it has
  // crossed JSON itself was not edited, so it stays as written, byte for byte.
  if (isNode(node) && sameData(throughJson(node.toJS(doc, { maxAliasCount: 100 })), next)) return node;
  if (isPlainObject(next) && isMap(node)) {
    unfoldWhenFilled(node, Object.keys(next).length);
    reconcileMap(doc, node, next);
    return node;
  }
  if (Array.isArray(next) && isSeq(node)) {
    unfoldWhenFilled(node, next.length);
    reconcileSeq(doc, node, next);
    return node;
  }
  if (isScalar(node) && isPrimitive(next) && typeof node.value === typeof next) {
    // Keeps the scalar's comments and quoting; only the value changes.
    if (node.value !== next) {
      const wasEmptyString = node.value === '';
      node.value = next;
      // A block scalar (`|`, `>`) for a text that no longer has a line break would read oddly.
      if (typeof next === 'string' && !next.includes('\n') && (node.type === 'BLOCK_FOLDED' || node.type === 'BLOCK_LITERAL')) delete node.type;
      // An empty string has to be quoted; the text filled in later was never meant to be.
      if (node.value !== '' && wasEmptyString && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) delete node.type;
    }
    return node;
  }
  const created = doc.createNode(next);
  // A replaced node keeps the comments that were around it.
  if (isNode(node) && isNode(created)) {
    created.commentBefore = node.commentBefore;
    created.comment = node.comment;
  }
  return created;
}

function reconcileMap(doc: Document, node: YAMLMap, next: Record<string, unknown>): void {
  const wanted = Object.keys(next).filter((key) => next[key] !== undefined);
  node.items = node.items.filter((pair) => wanted.includes(keyText(pair)));
  wanted.forEach((key, index) => {
    const pair = node.items.find((p) => keyText(p) === key);
    if (pair) {
      pair.value = reconcile(doc, pair.value, next[key]);
      return;
    }
    const previous = wanted
      .slice(0, index)
      .reverse()
      .find((k) => node.items.some((p) => keyText(p) === k));
    const at = previous === undefined ? 0 : node.items.findIndex((p) => keyText(p) === previous) + 1;
    node.items.splice(at, 0, doc.createPair(key, next[key]));
  });
}

function reconcileSeq(doc: Document, node: YAMLSeq, next: readonly unknown[]): void {
  const old = node.items;
  const oldIds = old.map((item) => identity(isNode(item) ? item.toJS(doc, { maxAliasCount: 100 }) : item));
  const newIds = next.map(identity);
  const items: unknown[] = new Array<unknown>(next.length);
  const used = new Set<number>();
  const take = (oi: number, ni: number) => {
    items[ni] = reconcile(doc, old[oi], next[ni]);
    used.add(oi);
  };
  const anchors = commonSubsequence(oldIds, newIds);
  for (const [oi, ni] of anchors) take(oi, ni);
  // An item that moved (its identity outside the common order) takes its own node, comments and all.
  next.forEach((_, ni) => {
    if (items[ni] !== undefined) return;
    const oi = oldIds.findIndex((id, i) => !used.has(i) && id === newIds[ni]);
    if (oi >= 0) take(oi, ni);
  });
  // Between two anchors, what is left pairs up by position (an item edited in place, renamed say);
  // an old item whose identity is still wanted elsewhere has been taken already.
  const wanted = new Set(newIds);
  const bounds = [[-1, -1], ...anchors, [old.length, next.length]] as const;
  for (let k = 1; k < bounds.length; k++) {
    const [oldFrom, newFrom] = bounds[k - 1]!;
    const [oldTo, newTo] = bounds[k]!;
    let oi = oldFrom + 1;
    for (let ni = newFrom + 1; ni < newTo; ni++) {
      if (items[ni] !== undefined) continue;
      while (oi < oldTo && (used.has(oi) || wanted.has(oldIds[oi]!))) oi++;
      if (oi < oldTo) take(oi, ni);
      else items[ni] = doc.createNode(next[ni]);
    }
  }
  node.items = items;
}

/**
 * `[]` and `{}` are how an empty collection is written, not a chosen style: once it gets items it is
 * written as a block, like the rest of the file. A flow collection that had items keeps its style.
 */
function unfoldWhenFilled(node: YAMLMap | YAMLSeq, size: number): void {
  if (node.flow && node.items.length === 0 && size > 0) node.flow = false;
}

function keyText(pair: Pair): string {
  return String(isScalar(pair.key) ? pair.key.value : pair.key);
}

function identity(value: unknown): string {
  if (isPlainObject(value)) {
    if (typeof value.name === 'string') return `name:${value.name}`;
    if (typeof value.id === 'string') return `id:${value.id}`;
  }
  return `value:${JSON.stringify(value)}`;
}

/** A value as it reads after JSON.stringify and JSON.parse, which is how it reaches the form and comes back. */
function throughJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
