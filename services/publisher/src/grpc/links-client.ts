import { AnalyticsServiceClient } from '@spa/contracts/analytics/v1/analytics';
import { createClient } from '@spa/grpc';
import type { LinksPort } from '../domain/ports.js';

/** Short links of a target's URLs, made by the analytics service (which owns them and counts their clicks). */
export function linksPort(address: string): LinksPort & { close(): void } {
  const client = createClient(AnalyticsServiceClient, address, { deadlineMs: 15_000 });
  return {
    async shorten(workspaceId, postAccountId, texts) {
      const r = await client.shortenLinks({ workspaceId, postAccountId, texts });
      return { texts: r.texts, first: r.shortUrl && r.originalUrl ? { shortUrl: r.shortUrl, originalUrl: r.originalUrl } : undefined };
    },
    close: () => client.close(),
  };
}
