import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificates {
  /** The certificate authority's certificate (PEM): what NODE_EXTRA_CA_CERTS names. */
  readonly caFile: string;
  /** The server's certificate, signed by that authority, and its key (PEM files). */
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * A certificate authority of the test's own, trusted by nothing on the machine, and a server
 * certificate it signed for `names` (DNS names, or IP addresses): made with openssl in `dir`.
 */
export function makeTestCertificates(dir: string, names: readonly string[]): TestCertificates {
  const at = (file: string) => path.join(dir, file);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Custom Actions test CA',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
  );
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    `/CN=${names[0]}`,
    '-keyout',
    at('server.key'),
    '-out',
    at('server.csr'),
  );
  const altNames = names.map((name) => (/^[\d.]+$|:/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(',');
  writeFileSync(at('server.ext'), `subjectAltName=${altNames}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    at('server.ext'),
    '-out',
    at('server.pem'),
  );
  return { caFile: at('ca.pem'), certFile: at('server.pem'), keyFile: at('server.key') };
}
