import { route } from './route.js';

/**
 * Operations that need a dashboard session (key management, webhooks, billing mutations, account
 * identity). They exist so that a token gets a clear 403 ENDPOINT_NOT_AVAILABLE instead of a 404.
 */
const dashboard = (method: 'get' | 'post' | 'patch' | 'delete', path: string, summary: string, description?: string) =>
  route({ method, path, summary, ...(description ? { description } : {}), tag: 'Dashboard only', audience: 'dashboard', plan: 'any', status: 200 });

const WEBHOOK_LIMIT =
  'At most 5 webhooks per workspace, disabled ones counted (a disabled webhook keeps its settings, secret and log, and is enabled again without needing room); delete one to make room.';

export const dashboardOnlyRoutes = [
  dashboard('get', '/api_keys', 'List API keys'),
  dashboard('post', '/api_keys', 'Create an API key'),
  dashboard('delete', '/api_keys/{id}', 'Revoke an API key'),
  dashboard('get', '/webhooks', 'List webhooks'),
  dashboard('post', '/webhooks', 'Create a webhook', `${WEBHOOK_LIMIT} A 6th is 422 INVALID_STATE.`),
  dashboard('get', '/webhooks/{id}', 'Get a webhook'),
  dashboard('patch', '/webhooks/{id}', 'Update a webhook'),
  dashboard(
    'delete',
    '/webhooks/{id}',
    'Delete a webhook',
    `No more events are sent to it (a delivery still waiting is dropped) and its delivery log is deleted with it; its place is free at once. ${WEBHOOK_LIMIT}`,
  ),
  dashboard('get', '/webhooks/{id}/deliveries', 'List deliveries of a webhook'),
  dashboard('post', '/webhooks/{id}/deliveries/{delivery_id}/redeliver', 'Redeliver one delivery'),
  dashboard('post', '/billing/subscriptions', 'Subscribe'),
  dashboard('patch', '/billing/subscriptions/{id}', 'Change plan'),
  dashboard('delete', '/billing/subscriptions/{id}', 'Cancel a subscription'),
  dashboard('get', '/me', 'The signed-in user'),
  dashboard('get', '/account', 'Account identity'),
  dashboard('patch', '/account', 'Update account identity'),
];
