import { isIP } from 'node:net';

/** Whether listening on `host` keeps the sandbox to this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

/**
 * The host part of the sandbox's URL when it listens on `host`: an address that means "every
 * interface" is reached through loopback on this machine, and an IPv6 literal goes in brackets.
 */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}
