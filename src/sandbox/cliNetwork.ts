/**
 * The command line's options for a sandbox a team reaches over the network: where it listens, TLS,
 * and the request size and rate limits. Each flag has an environment variable (for a systemd unit or
 * a container); the flag wins. The extension starts its sandbox with none of these variables.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_CORS_ORIGINS, parseCorsOrigins } from './http/cors';
import { type SandboxLimits } from './limits';
import { type SandboxOptions } from './index';

export const NETWORK_FLAGS = {
  host: { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'rate-limit': { type: 'string' },
  'max-json-bytes': { type: 'string' },
  'max-code-bytes': { type: 'string' },
  'cors-origins': { type: 'string' },
} as const;

export const NETWORK_USAGE = `  --host ADDR           listen on ADDR (default 127.0.0.1; 0.0.0.0 or :: for every interface)
  --tls-cert FILE       serve HTTPS with this PEM certificate (chain); needs --tls-key
  --tls-key FILE        the PEM private key of --tls-cert
  --rate-limit N        at most N requests a minute per key (per address without one); 0: no limit
  --max-json-bytes N    largest JSON request body (default 262144)
  --max-code-bytes N    largest implementation (default 524288)
  --cors-origins LIST   origins a browser may call from, comma-separated: an origin, https://*.domain,
                        loopback (localhost, 127.0.0.1, [::1] at any port), * or none; default:
                        ${DEFAULT_CORS_ORIGINS.join(',')} (VS Code for the Web)
  Each can come from the environment instead (the flag wins): CUSTOM_ACTIONS_SANDBOX_HOST,
  CUSTOM_ACTIONS_SANDBOX_TLS_CERT, CUSTOM_ACTIONS_SANDBOX_TLS_KEY, CUSTOM_ACTIONS_SANDBOX_RATE_LIMIT,
  CUSTOM_ACTIONS_SANDBOX_MAX_JSON_BYTES, CUSTOM_ACTIONS_SANDBOX_MAX_CODE_BYTES, CUSTOM_ACTIONS_SANDBOX_CORS_ORIGINS`;

type Flag = keyof typeof NETWORK_FLAGS;
const ENV_PREFIX = 'CUSTOM_ACTIONS_SANDBOX_';
const envName = (flag: Flag) => ENV_PREFIX + flag.toUpperCase().replace(/-/g, '_');

/** The startSandbox options the flags and variables ask for; throws an Error whose message names the bad one. */
export function networkOptions(
  values: Partial<Record<Flag, string | undefined>>,
  env: NodeJS.ProcessEnv,
): Pick<SandboxOptions, 'host' | 'tls' | 'corsOrigins'> & { limits: Partial<SandboxLimits> } {
  const get = (flag: Flag): { value: string; from: string } | undefined => {
    if (values[flag] !== undefined) return { value: values[flag], from: `--${flag}` };
    const value = env[envName(flag)];
    return value === undefined || value === '' ? undefined : { value, from: envName(flag) };
  };
  const count = (flag: Flag, min: number): number | undefined => {
    const given = get(flag);
    if (!given) return undefined;
    const n = Number(given.value);
    if (!/^\d+$/.test(given.value.trim()) || !Number.isSafeInteger(n) || n < min)
      throw new Error(`${given.from} must be a whole number of at least ${min}, not "${given.value}"`);
    return n;
  };
  const file = (flag: Flag): Buffer | undefined => {
    const given = get(flag);
    if (!given) return undefined;
    try {
      return readFileSync(given.value);
    } catch (error) {
      throw new Error(`${given.from}: cannot read ${given.value} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  };
  const host = get('host')?.value.trim();
  if (host === '') throw new Error('--host must name an address');
  const cert = file('tls-cert');
  const key = file('tls-key');
  if ((cert === undefined) !== (key === undefined)) throw new Error('--tls-cert and --tls-key go together: give both or neither');
  const limits: Partial<SandboxLimits> = {};
  const rate = count('rate-limit', 0);
  if (rate !== undefined) Object.assign(limits, { requestsPerMinute: rate });
  const json = count('max-json-bytes', 1024);
  if (json !== undefined) Object.assign(limits, { jsonBodyBytes: json });
  const code = count('max-code-bytes', 1024);
  if (code !== undefined) Object.assign(limits, { codeBytes: code });
  const cors = get('cors-origins');
  let corsOrigins: string[] | undefined;
  try {
    corsOrigins = cors ? parseCorsOrigins(cors.value) : undefined;
  } catch (error) {
    throw new Error(`${cors!.from}${(error as Error).message.replace(/^--cors-origins/, '')}`);
  }
  return { ...(host ? { host } : {}), ...(cert && key ? { tls: { cert, key } } : {}), ...(corsOrigins ? { corsOrigins } : {}), limits };
}
