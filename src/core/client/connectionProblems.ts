import { TRANSPORT_ERROR } from './transport';

/**
 * Failures of a connection that retrying cannot mend and that a person must act on: a certificate
 * this process does not trust, one for another name or out of its dates, a proxy setting that is no
 * URL, a proxy that wants credentials. Each is an ApiError code, so every face words its own fix
 * (the command line's hints name environment variables, the extension's its settings).
 */
export type ConnectionProblem = 'untrusted-certificate' | 'certificate-name' | 'certificate-dates' | 'proxy-setting' | 'proxy-auth' | 'proxy-refused';

/** OpenSSL's and Node's codes for a chain that ends at no authority this process trusts. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const DATES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

const REASONS: Record<ConnectionProblem, string> = {
  'untrusted-certificate': "the server's certificate is not signed by a certificate authority this process trusts",
  'certificate-name': "the server's certificate is for another name than the base URL's host",
  'certificate-dates': "the server's certificate has expired or is not valid yet",
  'proxy-setting': 'the proxy setting is not a proxy URL',
  'proxy-auth': 'the proxy asks for credentials it was not given or refused',
  'proxy-refused': 'the proxy refused to open a tunnel to the server',
};

/** The problem a transport's error code stands for, with the words of its reason, or undefined for any other failure. */
export function connectionProblem(code: string, message: string | undefined): { problem: ConnectionProblem; reason: string } | undefined {
  const problem: ConnectionProblem | undefined = UNTRUSTED.has(code)
    ? 'untrusted-certificate'
    : code === 'ERR_TLS_CERT_ALTNAME_INVALID'
      ? 'certificate-name'
      : DATES.has(code)
        ? 'certificate-dates'
        : code === TRANSPORT_ERROR.proxySetting
          ? 'proxy-setting'
          : code === TRANSPORT_ERROR.proxyAuth
            ? 'proxy-auth'
            : code === TRANSPORT_ERROR.proxyRefused
              ? 'proxy-refused'
              : undefined;
  if (!problem) return undefined;
  // The transport's message says which proxy or setting; a certificate's code is kept for a search.
  const detail = problem.startsWith('proxy') ? message : code;
  return { problem, reason: detail ? `${REASONS[problem]} (${detail})` : REASONS[problem] };
}

export function isConnectionProblem(code: string | undefined): code is ConnectionProblem {
  return code !== undefined && Object.hasOwn(REASONS, code);
}

/** A proxy that refused a tunnel may be passing on the server's trouble (502, 503): tried again like one. */
export function connectionProblemRetryable(problem: ConnectionProblem): boolean {
  return problem === 'proxy-refused';
}
