import { makeGenericClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { grpcSecurity } from './security.js';

const HealthClient = makeGenericClientConstructor(healthService as never, 'grpc.health.v1.Health');

/** Asks a process's grpc.health.v1 service for a service's status ('' = the whole server). */
export function checkHealth(address: string, service = '', deadlineMs = 2_000): Promise<string> {
  const client = new HealthClient(address, grpcSecurity().client());
  return new Promise<string>((resolve, reject) => {
    (client as unknown as { check: (req: object, opts: object, cb: (err: ServiceError | null, res: { status: string }) => void) => void }).check(
      { service },
      { deadline: Date.now() + deadlineMs },
      (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res.status);
      },
    );
  });
}
