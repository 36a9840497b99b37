import { DashboardServiceClient } from '@spa/contracts/accounts/v1/dashboard';
import { WebhooksServiceClient } from '@spa/contracts/webhooks/v1/webhooks';
import { createClient, type PromiseClient } from '@spa/grpc';
import type { Clients } from '../clients.js';

/** The gateway's API clients plus what only the dashboard calls. */
export interface DashboardClients extends Clients {
  dashboard: PromiseClient<DashboardServiceClient>;
  webhooks: PromiseClient<WebhooksServiceClient>;
}

export function createDashboardClients(clients: Clients, config: { ACCOUNTS_ADDR: string; WEBHOOKS_ADDR: string; GRPC_DEADLINE_MS: number }): DashboardClients {
  const defaults = { deadlineMs: config.GRPC_DEADLINE_MS };
  return {
    ...clients,
    dashboard: createClient(DashboardServiceClient, config.ACCOUNTS_ADDR, defaults),
    webhooks: createClient(WebhooksServiceClient, config.WEBHOOKS_ADDR, defaults),
  };
}

export function closeDashboardClients(clients: DashboardClients): void {
  clients.dashboard.close();
  clients.webhooks.close();
}
