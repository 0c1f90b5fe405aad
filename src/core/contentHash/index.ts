/**
 * Content hashes of code and metadata: whether two texts are the same without keeping both. The client
 * names them with every version it reads and every write it makes; deploy compares them with its base.
 * A folder of its own because both of those folders need it, and deploy also uses the client.
 */
import { sha256Hex } from './sha256';

/**
 * Fields the server adds to an action's resource (GET /api/actions/{id}) that are not metadata, so
 * hashing the resource and hashing the local metadata agree.
 */
const SERVER_FIELDS = new Set(['id', 'eventsUrls', 'hasImplementation', 'updatedAt', 'createdAt']);

/** Deeper than any metadata can be: the schema nests a collection in an object property in a result. */
const MAX_DEPTH = 64;

/**
 * The hash of code: of its exact text, line endings and all, as the server stores what was sent; only
 * a leading byte order mark is left out, since a UTF-8 decoder (the sandbox's among them) drops it.
 */
export function codeHash(code: string): string {
  return sha256(code.startsWith('\uFEFF') ? code.slice(1) : code);
}

/**
 * The hash of metadata, of its canonical JSON: key order, whitespace and the fields the server adds
 * to its resource do not change it, so `metadataHash(resource) === metadataHash(action.yaml's metadata)`
 * when they hold the same metadata. Throws a RangeError for a value nested deeper than metadata can be.
 */
export function metadataHash(metadata: object): string {
  return sha256(canonicalJson(metadataFields(metadata)));
}

/** The metadata of an action's resource: everything but the fields the server adds. */
export function metadataFields(resource: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(resource)) if (!SERVER_FIELDS.has(name)) out[name] = value;
  return out;
}

/**
 * JSON with the members of every object sorted by name and no whitespace; otherwise as JSON.stringify
 * writes it (members whose value is undefined left out, in arrays written as null).
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) throw new RangeError(`the value is nested more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item, depth + 1))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .flatMap((name) => {
        const member = (value as Record<string, unknown>)[name];
        return member === undefined || typeof member === 'function' ? [] : [`${JSON.stringify(name)}:${canonicalJson(member, depth + 1)}`];
      });
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function sha256(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}
