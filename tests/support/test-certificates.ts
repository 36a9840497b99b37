import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface CertificateFiles {
  cert: string;
  key: string;
}

/**
 * A throw-away certificate authority and certificates signed by it (openssl, P-256 keys, valid a day),
 * as cert-manager would issue in a cluster: every certificate names its service in CN and carries
 * localhost and 127.0.0.1 as subject alternative names so it serves and calls on loopback.
 */
export function issueTestCertificates(names: string[]): { dir: string; ca: string; certs: Record<string, CertificateFiles> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'spa-certs-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-subj', '/CN=spa-test-ca', '-days', '1']);
  writeFileSync(file('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  const certs: Record<string, CertificateFiles> = {};
  for (const name of names) {
    openssl(['req', ...ec, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${name}`]);
    openssl(['x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file(`${name}.crt`), '-days', '1', '-extfile', file('san.ext')]);
    certs[name] = { cert: file(`${name}.crt`), key: file(`${name}.key`) };
  }
  return { dir, ca: file('ca.crt'), certs };
}
