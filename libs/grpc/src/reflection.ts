import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

/** The repository's (or the image's) proto/ folder: libs/grpc/dist → ../../../proto. */
const PROTO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../proto');

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? protoFiles(path.join(dir, e.name)) : e.name.endsWith('.proto') ? [path.relative(PROTO_ROOT, path.join(dir, e.name))] : [],
  );
}

/**
 * Adds gRPC server reflection (v1 and v1alpha) for the services this server serves, from the same proto
 * files the code is generated from, so operators can `grpcurl -plaintext HOST:PORT list` and describe.
 * Without the proto folder (a stripped image) it is skipped and says so.
 */
export function addReflection(server: Server, services: readonly string[]): boolean {
  let files: string[];
  try {
    files = protoFiles(PROTO_ROOT);
  } catch {
    return false;
  }
  const definition = loadSync(files, { includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true });
  new ReflectionService(definition, { services: [...services, 'grpc.health.v1.Health'] }).addToServer(server);
  return true;
}
