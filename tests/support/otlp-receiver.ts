import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: OtlpAttribute[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

/**
 * An OTLP/HTTP trace receiver (the collector's `POST /v1/traces`, JSON encoding) that keeps every span
 * it is sent, so a test can check which processes took part in one trace.
 */
export class OtlpReceiver {
  private constructor(
    private readonly server: Server,
    readonly spans: ReceivedSpan[],
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const spans: ReceivedSpan[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
            resourceSpans?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>;
          };
          for (const rs of body.resourceSpans ?? []) {
            const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
            for (const ss of rs.scopeSpans ?? []) {
              for (const s of ss.spans ?? []) {
                spans.push({
                  service,
                  name: String(s.name),
                  traceId: String(s.traceId),
                  spanId: String(s.spanId),
                  parentSpanId: s.parentSpanId ? String(s.parentSpanId) : undefined,
                  kind: Number(s.kind),
                  attributes: attributesOf(s.attributes as OtlpAttribute[] | undefined),
                });
              }
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    const receiver = new OtlpReceiver(server, spans);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of the trace that contains a span matching `where`. */
  traceOf(where: (s: ReceivedSpan) => boolean): ReceivedSpan[] {
    const root = this.spans.find(where);
    return root ? this.spans.filter((s) => s.traceId === root.traceId) : [];
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
