import { type IncomingMessage } from 'node:http';
import { HttpProblem } from './problem';

/** The media type of a request without its parameters, lower case, and its charset if any. */
export function contentType(req: IncomingMessage): { type: string; charset: string | undefined } {
  const header = req.headers['content-type'] ?? '';
  const [essence = '', ...params] = header.split(';');
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p)?.[1]).find((c) => c !== undefined);
  return { type: essence.trim().toLowerCase(), charset: charset?.toLowerCase() };
}

/**
 * Reads the whole body, refusing more than `maxBytes`. An oversized body is still drained (up to a
 * bound) so the client reads the 413 instead of a reset connection.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const tooLarge = () => new HttpProblem(413, 'payload-too-large', `the body is larger than ${maxBytes} bytes`, undefined, { Connection: 'close' });
  if (Number.isFinite(declared) && declared > maxBytes) {
    drain(req, maxBytes);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      drain(req, maxBytes);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function drain(req: IncomingMessage, maxBytes: number): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    // Beyond this the client is not worth waiting for: the connection closes after the answer anyway.
    if (drained > 8 * maxBytes) req.destroy();
  });
  req.resume();
}

/** UTF-8 text, refusing other charsets and invalid byte sequences. */
export function decodeText(body: Buffer, charset: string | undefined): string {
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpProblem(415, 'unsupported-media-type', `only the utf-8 charset is accepted, not "${charset}"`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw new HttpProblem(400, 'malformed-json', 'the body is not valid UTF-8');
  }
}

export function isJsonType(type: string): boolean {
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const { type, charset } = contentType(req);
  if (!isJsonType(type)) {
    throw new HttpProblem(415, 'unsupported-media-type', `send the body as application/json${type ? `, not ${type}` : ''}`);
  }
  const text = decodeText(await readBody(req, maxBytes), charset);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpProblem(400, 'malformed-json', `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
