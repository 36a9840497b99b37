import { readFileSync } from 'node:fs';
import { credentials, ServerCredentials, status, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import { ConfigError } from '@spa/config';

/**
 * How this process's gRPC servers and clients protect their connections: plaintext for the local stack,
 * or mutual TLS (every peer shows a certificate signed by the deployment's CA) with, on the server side,
 * an allow-list of the callers that may use it. Set once at start-up; every server and client follows it.
 */
export interface GrpcSecurity {
  mode: 'plaintext' | 'mtls';
  server(): ServerCredentials;
  client(): ChannelCredentials;
  /** Certificate names (CN or DNS SAN) allowed to call this process's servers; undefined = any peer of the CA. */
  allowedCallers?: ReadonlySet<string>;
}

export interface GrpcSecurityConfig {
  GRPC_TLS_CERT?: string | undefined;
  GRPC_TLS_KEY?: string | undefined;
  GRPC_TLS_CA?: string | undefined;
  GRPC_ALLOWED_CALLERS?: string | undefined;
}

const PLAINTEXT: GrpcSecurity = {
  mode: 'plaintext',
  server: () => ServerCredentials.createInsecure(),
  client: () => credentials.createInsecure(),
};

let current: GrpcSecurity = PLAINTEXT;

export function grpcSecurity(): GrpcSecurity {
  return current;
}

function readPem(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${variable}: cannot read ${path} (${(err as Error).message})`);
  }
}

/**
 * Chooses plaintext (no TLS variable set) or mutual TLS (all three files set) from the process's config,
 * reading the PEM files once. A partial TLS configuration stops the process naming what is missing.
 */
export function configureGrpcSecurity(config: GrpcSecurityConfig): GrpcSecurity {
  const files = { GRPC_TLS_CERT: config.GRPC_TLS_CERT, GRPC_TLS_KEY: config.GRPC_TLS_KEY, GRPC_TLS_CA: config.GRPC_TLS_CA };
  const set = Object.entries(files).filter(([, v]) => v);
  if (set.length === 0) {
    if (config.GRPC_ALLOWED_CALLERS) throw new ConfigError('Invalid configuration:\n  GRPC_ALLOWED_CALLERS: needs mutual TLS (GRPC_TLS_CERT, GRPC_TLS_KEY, GRPC_TLS_CA)');
    current = PLAINTEXT;
    return current;
  }
  if (set.length < 3) {
    const missing = Object.entries(files)
      .filter(([, v]) => !v)
      .map(([k]) => `${k}: required when any GRPC_TLS_* is set`);
    throw new ConfigError(`Invalid configuration:\n  ${missing.join('\n  ')}`);
  }
  const cert = readPem('GRPC_TLS_CERT', files.GRPC_TLS_CERT!);
  const key = readPem('GRPC_TLS_KEY', files.GRPC_TLS_KEY!);
  const ca = readPem('GRPC_TLS_CA', files.GRPC_TLS_CA!);
  const allowed = config.GRPC_ALLOWED_CALLERS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  current = {
    mode: 'mtls',
    // true: a client without a certificate signed by the CA is refused during the handshake.
    server: () => ServerCredentials.createSsl(ca, [{ cert_chain: cert, private_key: key }], true),
    client: () => credentials.createSsl(ca, key, cert),
    ...(allowed && allowed.length > 0 ? { allowedCallers: new Set(allowed) } : {}),
  };
  return current;
}

interface PeerCertificate {
  subject?: { CN?: string | string[] };
  subjectaltname?: string;
}

/** The names a peer certificate carries: its subject CN and DNS subject alternative names. */
export function certificateNames(cert: PeerCertificate | undefined): string[] {
  if (!cert) return [];
  const cn = cert.subject?.CN;
  const names = Array.isArray(cn) ? [...cn] : cn ? [cn] : [];
  for (const part of (cert.subjectaltname ?? '').split(',')) {
    const m = /^\s*DNS:(.+)$/.exec(part);
    if (m?.[1]) names.push(m[1].trim());
  }
  return names;
}

/**
 * The refusal for a caller this server does not accept, or undefined. Only with an allow-list: the
 * handshake already proved the certificate is the deployment's; the list says which services may call.
 */
export function callerRefusal(call: { getAuthContext?: () => { sslPeerCertificate?: PeerCertificate } | null }): Partial<ServiceError> | undefined {
  const allowed = current.allowedCallers;
  if (!allowed) return undefined;
  const names = certificateNames(call.getAuthContext?.()?.sslPeerCertificate);
  if (names.some((n) => allowed.has(n))) return undefined;
  return { code: status.PERMISSION_DENIED, details: `caller ${names[0] ?? '(no certificate)'} may not call this service` };
}
