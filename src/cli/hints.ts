/**
 * What to do next, in the words of the command line: the client's own hints speak of the editor
 * (Sign In, saving, a setting), which a person at a terminal or a pipeline's log cannot act on.
 */
import { type ApiError, type ConnectionProblem, isConnectionProblem } from '../core/client';

const BY_KIND: Partial<Record<ApiError['kind'], string>> = {
  auth: "The server refused the key: check CUSTOM_ACTIONS_KEY (or the application's own variable, or --key-file).",
  timeout: 'The server did not answer in time; try again, or raise --timeout.',
  network: 'Is the server running, and is the base URL (customactions.yaml, or --base-url) right?',
  validation: 'Fix what the server names in action.yaml, then run the command again.',
};

/** What mends a connection that failed before it reached the server (docs/cli.md, *Behind a company network*). */
const BY_CONNECTION_PROBLEM: Record<ConnectionProblem, string> = {
  'untrusted-certificate':
    "If a certificate authority of your company's signs the server's certificate, set NODE_EXTRA_CA_CERTS to the file of that authority's certificate (PEM) and run again.",
  'certificate-name': "Use the host name the server's certificate is made for in the base URL (customactions.yaml, or --base-url).",
  'certificate-dates': "The server's certificate must be renewed, or this machine's clock set right.",
  'proxy-setting': 'Fix HTTPS_PROXY or HTTP_PROXY (or their lower-case names): http://host:port, or http://user:password@host:port.',
  'proxy-auth': "Give the proxy's user name and password in HTTPS_PROXY (or HTTP_PROXY): http://user:password@host:port.",
  'proxy-refused': 'The proxy may not allow this server: ask for it, or, when the server is reachable without the proxy, add its host to NO_PROXY.',
};

/** The command line's hint for a failure of the client, or undefined to keep the client's. */
export function cliHint(error: ApiError): string | undefined {
  if (isConnectionProblem(error.code)) return BY_CONNECTION_PROBLEM[error.code];
  if (error.code === 'no-implementation') return 'Write its main.ts and deploy it (custom-actions deploy <action>), then run it again.';
  // A list answered 404 names no action: the application is unknown there, or the URL has a path too many.
  if (error.kind === 'not-found' && error.operation === 'listActions')
    return "The server does not know this application, or the base URL is not the server's root (no /api at its end).";
  return BY_KIND[error.kind];
}

/**
 * A warning when keys would cross the network unencrypted: an `http:` base URL whose host is not
 * this machine. Not refused, as the extension does not refuse it (a team sandbox on a private
 * network may have no certificate), but said on every run, so it is not done by accident.
 */
export function plainHttpWarning(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || isThisMachine(url.hostname)) return undefined;
  return `${url.origin} is plain http: the key and the code cross the network unencrypted. Use https, or http only for a server on this machine.`;
}

function isThisMachine(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}
