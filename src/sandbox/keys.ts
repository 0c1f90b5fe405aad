import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SANDBOX_KEY_PREFIX } from '../core/client/redact';

/** `ca_sk_` (the shape the command line and the extension scrub from their output) and 32 random bytes: long enough that a plain sha-256 is a safe way to store it. */
export function mintKey(): string {
  return `${SANDBOX_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(header) : null;
  return match?.[1];
}
