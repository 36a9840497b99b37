import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDS } from '@atproto/pds';
import { Database as PlcDatabase, PlcServer } from '@did-plc/server';

/**
 * A real Bluesky PDS (`@atproto/pds`) and PLC directory (`@did-plc/server`, in memory) on loopback ports,
 * configured the way `@atproto/dev-env` configures its test network (`TestPlc`, `TestPds`: dev mode, invites
 * off, temp data dirs; no app view, moderation service or crawlers: nothing leaves the machine).
 * Its own process (run by Node's type stripping; tests/support/bluesky-pds.ts starts it): the PDS's native
 * SQLite handles abort a test worker that collects them after teardown. Prints `READY pds=host:port`.
 */
const LOOPBACK = '127.0.0.1';

/** Both servers only call `app.listen(port)` (every interface): make that listen on loopback only. */
function listenOnLoopback(app: unknown): void {
  const express = app as { listen: (port: number, host?: string) => Server };
  const listen = express.listen.bind(express);
  express.listen = (port: number) => listen(port, LOOPBACK);
}

/** The PDS derives its public URL (and so its DID documents) from its port: it must be known before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A secp256k1 private key as hex (the PDS's PLC rotation key). */
function secp256k1Hex(): string {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ format: 'jwk' });
  return Buffer.from(jwk.d ?? '', 'base64url').toString('hex');
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'spa-bluesky-pds-'));
  const plc = PlcServer.create({ db: PlcDatabase.mock(), port: 0 });
  listenOnLoopback(plc.app);
  const plcServer = await plc.start();
  const plcUrl = `http://${LOOPBACK}:${(plcServer.address() as AddressInfo).port}`;
  const port = await freePort();
  const pds = await PDS.fromEnv({
    devMode: true,
    port,
    hostname: 'localhost',
    dataDirectory: dataDir,
    blobstoreDiskLocation: join(dataDir, 'blobs'),
    didPlcUrl: plcUrl,
    plcRotationKeyK256PrivateKeyHex: secp256k1Hex(),
    adminPassword: randomBytes(16).toString('hex'),
    jwtSecret: randomBytes(32).toString('hex'),
    inviteRequired: false,
    serviceHandleDomains: ['.test'],
    // No app view, moderation service or crawlers: nothing leaves the machine.
    bskyAppViewUrl: 'https://appview.invalid',
    bskyAppViewDid: 'did:example:invalid',
    bskyAppViewCdnUrlPattern: 'http://cdn.appview.invalid/%s/%s/%s',
    modServiceUrl: 'https://moderator.invalid',
    modServiceDid: 'did:example:invalid',
    crawlers: [],
    disableSsrfProtection: true,
  });
  listenOnLoopback(pds.app);
  const pdsServer = await pds.start();
  if ((pdsServer.address() as AddressInfo).address !== LOOPBACK || (plcServer.address() as AddressInfo).address !== LOOPBACK) throw new Error('the PDS or PLC is not on loopback');
  process.stdout.write(`READY pds=${LOOPBACK}:${port}\n`);
  const stop = async () => {
    await pds.destroy();
    await plc.destroy();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

await main();
