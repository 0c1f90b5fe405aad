/**
 * How the extension's requests cross the network, from VS Code's own settings (read in config.ts),
 * so they go where VS Code's own requests go: `http.proxy` (else the environment's HTTPS_PROXY and
 * HTTP_PROXY, as VS Code falls back to them), `http.noProxy` with NO_PROXY, `http.proxyStrictSSL`,
 * `http.proxySupport: off`, and the system's certificate authorities. undici does not go through the
 * `https` module VS Code patches for extensions, so everything is handed to the Node transport here.
 * No `vscode` import: the unit tests run it with plain values.
 */
import * as fs from 'node:fs';
import * as tls from 'node:tls';
import { type NodeTransportOptions } from '../core/client/nodeTransport';
import { proxySettingsFromEnv, splitNoProxy } from '../core/client/proxy';

export interface NetworkConfig {
  /** `http.proxy`: empty for none. */
  readonly proxy: string;
  /** `http.noProxy`. */
  readonly noProxy: readonly string[];
  /** `http.proxyStrictSSL`. */
  readonly proxyStrictSSL: boolean;
  /** `http.proxySupport`: `off` sends nothing through a proxy. */
  readonly proxySupport: string;
  /** `http.systemCertificates`. */
  readonly systemCertificates: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The Node transport's options for these settings and this environment. */
export function nodeTransportOptions(config: NetworkConfig, env: Env, certificates: () => readonly string[] | undefined): NodeTransportOptions {
  const ca = config.systemCertificates ? certificates() : undefined;
  const base = { ...(ca ? { ca } : {}), proxyStrictSSL: config.proxyStrictSSL };
  if (config.proxySupport === 'off') return base;
  const fromEnv = proxySettingsFromEnv(env);
  const noProxy = [...config.noProxy.flatMap(splitNoProxy), ...(fromEnv.noProxy ?? [])];
  if (config.proxy)
    return { ...base, proxy: { httpProxy: config.proxy, httpsProxy: config.proxy, noProxy, names: { http: 'http.proxy', https: 'http.proxy' } } };
  return { ...base, proxy: { ...fromEnv, noProxy } };
}

/** Where Linux distributions keep the system's authorities as one PEM file. */
const LINUX_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem', '/etc/ssl/cert.pem'];

interface TlsStore {
  readonly rootCertificates: readonly string[];
  readonly getCACertificates?: (type: 'default' | 'system') => string[];
}
interface Files {
  existsSync(path: string): boolean;
  readFileSync(path: string, encoding: 'utf8'): string;
}

/**
 * The authorities to trust: Node's default store (its own and NODE_EXTRA_CA_CERTS) and the system's.
 * A Node that can read the system's store does (22.15 and later); before it, on Linux, the
 * distribution's bundle file is read; elsewhere undefined, which leaves Node's default store
 * (NODE_EXTRA_CA_CERTS then names a company's authority). Given `ca`, Node trusts only it, so
 * NODE_EXTRA_CA_CERTS, which Node added to its default store at start, is added again here.
 */
export function systemCertificates(env: Env, platform: string = process.platform, store: TlsStore = tls, files: Files = fs): readonly string[] | undefined {
  if (store.getCACertificates) return [...store.getCACertificates('default'), ...store.getCACertificates('system')];
  const bundle = platform === 'linux' ? LINUX_BUNDLES.find((file) => files.existsSync(file)) : undefined;
  if (!bundle) return undefined;
  const read = (file: string) => {
    try {
      return [files.readFileSync(file, 'utf8')];
    } catch {
      // Node says so itself at start for NODE_EXTRA_CA_CERTS; an unreadable bundle adds nothing.
      return [];
    }
  };
  return [...store.rootCertificates, ...read(bundle), ...(env.NODE_EXTRA_CA_CERTS ? read(env.NODE_EXTRA_CA_CERTS) : [])];
}
