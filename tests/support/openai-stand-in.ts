/**
 * A loopback stand-in for an OpenAI-compatible chat API: `POST /v1/chat/completions` with the
 * documented request (`model`, `messages`, `max_tokens`, `temperature`, `response_format`) and
 * response (`choices[0].message.content`, `finish_reason`, `usage`) shapes, and OpenAI's error body
 * (`{error: {message, type, param, code}}`) for error statuses. Each model id can be told how to
 * behave: answer (after a delay), fail with a status, answer malformed JSON, or answer no choices.
 *
 * Self-contained (node:http only, erasable TypeScript), so it also runs as its own process:
 * `node tests/support/openai-stand-in.ts` (PORT, STAND_IN_DELAY_MS, STAND_IN_API_KEY) prints
 * `READY http=127.0.0.1:<port>`; the benchmark starts it that way.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';

export type StandInBehavior =
  { kind: 'reply'; delayMs?: number; content?: string } | { kind: 'error'; status: number; message?: string; delayMs?: number } | { kind: 'malformed'; delayMs?: number } | { kind: 'no_choices' };

export interface RecordedRequest {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
  response_format?: { type: string };
  authorization: string | undefined;
}

export interface OpenAiStandIn {
  /** Base URL for the SDK (`…/v1`). */
  baseUrl: string;
  address: string;
  requests: RecordedRequest[];
  /** How `model` answers from now on (default: a generated reply after `defaultDelayMs`). */
  behave(model: string, behavior: StandInBehavior): void;
  close(): Promise<void>;
}

const WORDS = (
  'signal pattern budget launch rhythm craft insight habit feedback metric audience draft review ' +
  'focus clarity momentum lesson story example mistake experiment outcome process ritual toolkit ' +
  'roadmap friction leverage baseline milestone sprint retro pivot niche voice hook thread carousel ' +
  'summary detail context trust reach impact quality speed cost risk reward patience courage method'
).split(' ');

export async function startOpenAiStandIn(opts: { port?: number; defaultDelayMs?: number; apiKey?: string } = {}): Promise<OpenAiStandIn> {
  const behaviors = new Map<string, StandInBehavior>();
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => send(res, 500, { error: { message: String(err), type: 'server_error', param: null, code: null } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      send(res, 404, { error: { message: `Unknown path ${req.url}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
      return;
    }
    const body = JSON.parse(await readBody(req)) as Omit<RecordedRequest, 'authorization'>;
    const authorization = req.headers.authorization;
    requests.push({ ...body, authorization });
    if (opts.apiKey && authorization !== `Bearer ${opts.apiKey}`) {
      send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      return;
    }
    if (typeof body.model !== 'string' || !Array.isArray(body.messages)) {
      send(res, 400, { error: { message: 'model and messages are required', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const behavior = behaviors.get(body.model) ?? { kind: 'reply' as const };
    const delayMs = 'delayMs' in behavior ? (behavior.delayMs ?? opts.defaultDelayMs ?? 0) : (opts.defaultDelayMs ?? 0);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (res.destroyed) return;
    switch (behavior.kind) {
      case 'error':
        send(res, behavior.status, {
          error: { message: behavior.message ?? `Stand-in error ${behavior.status}`, type: behavior.status === 429 ? 'rate_limit_exceeded' : 'server_error', param: null, code: null },
        });
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-broken", "choices": [');
        return;
      case 'no_choices':
        send(res, 200, { id: 'chatcmpl-empty', object: 'chat.completion', created: now(), model: body.model, choices: [] });
        return;
      case 'reply': {
        const content = behavior.content ?? autoReply(body.messages, ++counter);
        send(res, 200, {
          id: `chatcmpl-${counter}`,
          object: 'chat.completion',
          created: now(),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: tokens(body.messages.map((m) => m.content).join(' ')), completion_tokens: tokens(content), total_tokens: 0 },
        });
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    address: `127.0.0.1:${port}`,
    requests,
    behave: (model, behavior) => void behaviors.set(model, behavior),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plausible answer of the requested kind: a post, `{"parts": [...]}` or `{"caption", "slides"}`, varied per call. */
function autoReply(messages: { role: string; content: string }[], n: number): string {
  const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const topic = /Topic: (.+)/.exec(user)?.[1]?.trim() ?? 'this';
  const sentence = (i: number) => {
    const pick = (k: number) => WORDS[(n * 7 + i * 13 + k * 5 + Math.floor(Math.random() * WORDS.length)) % WORDS.length];
    return `The ${pick(0)} behind ${topic} is ${pick(1)}, not ${pick(2)} or ${pick(3)}.`;
  };
  const parts = /exactly (\d+) parts/.exec(user);
  if (parts) return JSON.stringify({ parts: Array.from({ length: Number(parts[1]) }, (_, i) => `${sentence(i)} ${sentence(i + 50)}`) });
  const slides = /exactly (\d+) slides/.exec(user);
  if (slides) {
    return JSON.stringify({
      caption: `${sentence(1)}\n\nSwipe through.`,
      slides: Array.from({ length: Number(slides[1]) }, (_, i) => ({ title: `Idea ${i + 1}: ${WORDS[(n + i) % WORDS.length]}`, body: sentence(i) })),
    });
  }
  return `${sentence(0)} ${sentence(1)}\n\n${sentence(2)}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const now = () => Math.floor(Date.now() / 1000);
const tokens = (text: string) => Math.ceil(text.length / 4);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const standIn = await startOpenAiStandIn({
    port: Number(process.env.PORT ?? 0),
    defaultDelayMs: Number(process.env.STAND_IN_DELAY_MS ?? 0),
    apiKey: process.env.STAND_IN_API_KEY || undefined,
  });
  process.stdout.write(`READY http=${standIn.address}\n`);
  process.once('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
}
