import { type ServerResponse } from 'node:http';
import { MEDIA_TYPES } from '../../core/schema';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** A body that is JSON text already (the action list, built by the store), sent as it is. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': `${MEDIA_TYPES.json}; charset=utf-8`,
    'Cache-Control': 'no-store',
    ...headers,
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}
