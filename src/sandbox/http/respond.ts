import { type ServerResponse } from 'node:http';
import { MEDIA_TYPES } from '../../core/schema';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
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
