// Receives webhook deliveries and verifies their signature (put it behind HTTPS in production).
//   SPA_WEBHOOK_SECRET=whsec_… PORT=3000 node webhook-receiver.ts
import http from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@spa/sdk';

const secret = process.env.SPA_WEBHOOK_SECRET ?? '';
const seen = new Set<string>();

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        // Verify the raw bytes, before any JSON parsing.
        const event = verifyWebhook(Buffer.concat(chunks), req.headers['x-service-signature'], secret);
        res.writeHead(200).end();
        if (seen.has(event.id)) return; // a delivery may arrive more than once: deduplicate on its id
        seen.add(event.id);
        console.log(`${event.event} post ${event.post_id}: ${event.data.status}`, event.data.platforms);
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        res.writeHead(400).end();
        console.warn(err.message);
      }
    });
  })
  .listen(Number(process.env.PORT ?? 3000));
