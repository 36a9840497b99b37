import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server, ServiceDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

/** The repository's (or the image's) proto/ folder: libs/grpc/dist → ../../../proto. */
const PROTO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../proto');

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? protoFiles(path.join(dir, e.name)) : e.name.endsWith('.proto') ? [path.relative(PROTO_ROOT, path.join(dir, e.name))] : [],
  );
}

type Handlers = Record<string, (...args: never[]) => unknown>;

/** What a reflection service adds to a server: each version's service definition and its handlers. */
function registrations(reflection: ReflectionService): Array<{ definition: ServiceDefinition; handlers: Handlers }> {
  const out: Array<{ definition: ServiceDefinition; handlers: Handlers }> = [];
  reflection.addToServer({ addService: (definition: ServiceDefinition, handlers: Handlers) => out.push({ definition, handlers }) } as unknown as Server);
  return out;
}

/**
 * Adds gRPC server reflection (v1 and v1alpha) for the services this server serves, from the same proto
 * files the code is generated from, so operators can `grpcurl -plaintext HOST:PORT list` and describe.
 * The proto files are parsed on the first reflection call, not at start (about 0.4 s of CPU in every
 * process, every start, for a call most processes never get). Without the proto folder (a stripped
 * image) it is skipped and says so.
 */
export function addReflection(server: Server, services: readonly string[]): boolean {
  let files: string[];
  try {
    files = protoFiles(PROTO_ROOT);
  } catch {
    return false;
  }
  let loaded: ReturnType<typeof registrations> | undefined;
  const real = () =>
    (loaded ??= registrations(
      new ReflectionService(loadSync(files, { includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true }), {
        services: [...services, 'grpc.health.v1.Health'],
      }),
    ));
  // The service definitions come from a reflection service of nothing (cheap); each call is answered by the real one.
  for (const [i, { definition, handlers }] of registrations(new ReflectionService({}, { services: [] })).entries()) {
    const delegated = Object.fromEntries(Object.keys(handlers).map((method) => [method, (...args: never[]) => real()[i]!.handlers[method]!(...args)]));
    server.addService(definition, delegated as never);
  }
  return true;
}
