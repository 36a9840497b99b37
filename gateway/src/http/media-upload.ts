import { once } from 'node:events';
import { AppError, invalidParameters } from '@spa/errors';
import type { ClientStreamCall } from '@spa/grpc';
import type { Request, RequestHandler, Response } from 'express';
import parserModule from 'stream-json/parser.js';
import type { z } from 'zod';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import type { Clients } from '../clients.js';
import { BUCKETS, limitStateOf, type RateLimits } from '../rate-limit/limits.js';
import type { Route } from '../routes/route.js';
import { isInProcess } from '../mcp/dispatch.js';
import { Base64Decoder } from './base64-decoder.js';
import { authorize } from './policy.js';
import { recordLimit } from './rate-limit-headers.js';
import { validate } from './validate.js';

/**
 * Where a streamed upload's body goes: one client-streaming call to a backend, fed the small fields
 * as they are read and validated, the decoded `media` bytes in chunks, then the end of the body.
 */
export interface UploadSink {
  /** A small field of the body, validated against its schema. */
  field(key: string, value: unknown): Promise<void>;
  /** The next decoded bytes of `media`. */
  chunk(bytes: Buffer): Promise<void>;
  /** The body was complete and valid: ends the call and answers the route's JSON. */
  finish(): Promise<unknown>;
  /** Abandons the call (the backend sees a cancellation and keeps nothing). */
  cancel(): void;
}

/** How a base64 upload route treats its body: `{...fields, media: "<base64>"}`. */
export interface UploadSpec {
  /** The small fields of the body (everything but `media`), validated as they arrive. */
  fields: z.ZodObject;
  /** The largest file the route takes (decoded): the body limit is its base64 length plus room for the fields. */
  maxBytes: number;
  /** Opens the backend call of one request (its first message sent). */
  open(ctx: { clients: Clients; principal: Principal }): Promise<UploadSink>;
}

const specs = new WeakMap<Route, UploadSpec>();

/** Marks a table route as a streamed base64 upload (its JSON body is parsed as it arrives, never held whole). */
export function streamedUpload(route: Route, spec: UploadSpec): Route {
  specs.set(route, spec);
  return route;
}

export const uploadSpecOf = (route: Route): UploadSpec | undefined => specs.get(route);

/** Base64 length of `maxBytes` bytes, plus room for the other fields and JSON syntax. */
const FIELD_ROOM = 4096;
export const bodyLimitFor = (maxBytes: number): number => Math.ceil(maxBytes / 3) * 4 + FIELD_ROOM;

/**
 * Sends the first message of a client-streaming call whose messages all have `chunk` and `complete`
 * (the media and LinkedIn upload RPCs) and answers the sink over it: `blank` is a message with every
 * field at its default, `fieldMessage` the message of one small field, `answer` the route's JSON
 * from the call's response.
 */
export async function openCallSink<Req extends { chunk: Buffer; complete: boolean }, Res>(
  call: ClientStreamCall<Req, Res>,
  messages: { blank: Req; first: Partial<Req>; field: (key: string, value: unknown) => Partial<Req> },
  answer: (response: Res) => unknown,
): Promise<UploadSink> {
  const { blank } = messages;
  try {
    await call.write({ ...blank, ...messages.first });
  } catch (err) {
    call.cancel();
    throw err;
  }
  return {
    field: (key, value) => call.write({ ...blank, ...messages.field(key, value) }),
    chunk: (bytes) => call.write({ ...blank, chunk: bytes }),
    finish: async () => {
      await call.write({ ...blank, complete: true });
      return answer(await call.end());
    },
    cancel: () => call.cancel(),
  };
}

/** Decoded bytes sent per gRPC message. */
const MESSAGE_BYTES = 192 * 1024;
/** Base64 characters decoded at once (the decoded bytes are then sent in MESSAGE_BYTES messages). */
const TEXT_BATCH = 64 * 1024;
/** Longest small field (platform, content_type, social_account_id) or key read. */
const MAX_FIELD_CHARS = 256;
/** A refused body smaller than this is read to its end so the client surely sees the answer; a larger one closes the connection. */
const DRAIN_LIMIT = 8 * 1024 * 1024;

type Token = { name: string; value?: unknown };

/** The JSON type a field's schema takes, for the message of a value of the wrong structure. */
const jsonTypeOf = (schema: z.ZodType): string => (schema.safeParse(1).success ? 'number' : 'string');

/** Turns the JSON body into sink calls: small fields when complete (validated), `media` as decoded chunks. */
class BodyReader {
  private depth = 0;
  private key: string | undefined;
  private keyText = '';
  private inKey = false;
  private value: { key: string; text: string; number: boolean } | undefined;
  private decoder: Base64Decoder | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Base64 text gathered before decoding: the parser hands it over 256 characters at a time. */
  private text: string[] = [];
  private textChars = 0;
  private done = false;
  readonly seen = new Set<string>();

  constructor(
    private readonly spec: UploadSpec,
    private readonly sink: UploadSink,
  ) {}

  /** Handles one token; answers a promise only when it sends a message (the caller then pauses the parser). */
  token(t: Token): Promise<void> | void {
    if (this.done) throw invalidParameters(['request body: nothing may follow the JSON object']);
    switch (t.name) {
      case 'startObject':
      case 'startArray':
        if (this.depth === 0 && t.name === 'startObject') {
          this.depth = 1;
          return;
        }
        throw this.wrongType();
      case 'endObject':
        this.depth = 0;
        this.done = true;
        return;
      case 'startKey':
        this.inKey = true;
        this.keyText = '';
        return;
      case 'endKey':
        this.inKey = false;
        this.key = this.keyText;
        if (this.seen.has(this.key)) throw invalidParameters([`${this.key}: given twice`]);
        this.seen.add(this.key);
        if (this.key !== 'media' && !(this.key in this.spec.fields.shape)) throw invalidParameters([`${this.key}: unknown field`]);
        return;
      case 'startString':
        if (this.key === 'media') this.decoder = new Base64Decoder('media');
        else this.value = { key: this.key!, text: '', number: false };
        return;
      case 'startNumber':
        if (this.key === 'media') throw this.wrongType();
        this.value = { key: this.key!, text: '', number: true };
        return;
      case 'stringChunk':
      case 'numberChunk':
        return this.chunk(String(t.value));
      case 'endString':
        return this.decoder ? this.endMedia() : this.endValue();
      case 'endNumber':
        return this.endValue();
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        if (this.key === 'media') throw this.wrongType();
        return this.sendField(this.key!, t.name === 'nullValue' ? null : t.name === 'trueValue');
      default:
        return;
    }
  }

  private chunk(text: string): Promise<void> | void {
    if (this.inKey) {
      this.keyText += text;
      if (this.keyText.length > MAX_FIELD_CHARS) throw invalidParameters([`request body: a key longer than ${MAX_FIELD_CHARS} characters`]);
    } else if (this.decoder) {
      this.text.push(text);
      this.textChars += text.length;
      if (this.textChars >= TEXT_BATCH) return this.decodeText();
    } else if (this.value) {
      this.value.text += text;
      if (this.value.text.length > MAX_FIELD_CHARS) throw invalidParameters([`${this.value.key}: at most ${MAX_FIELD_CHARS} characters`]);
    }
  }

  private async endMedia(): Promise<void> {
    await this.decodeText();
    await this.queue(this.decoder!.end());
    await this.flush();
    this.decoder = undefined;
  }

  private endValue(): Promise<void> {
    const { key, text, number } = this.value!;
    this.value = undefined;
    return this.sendField(key, number ? Number(text) : text);
  }

  /** Validates a small field against its schema (the error names it) and sends it. */
  private async sendField(key: string, raw: unknown): Promise<void> {
    const field = this.spec.fields.shape[key] as z.ZodType;
    await this.sink.field(key, validate(field, raw, key));
  }

  private async decodeText(): Promise<void> {
    const text = this.text.join('');
    this.text = [];
    this.textChars = 0;
    await this.queue(this.decoder!.push(text));
  }

  private async queue(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= MESSAGE_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.sink.chunk(chunk);
  }

  private wrongType(): AppError {
    if (this.depth === 0) return invalidParameters(['request body: must be a JSON object']);
    if (this.key === 'media') return invalidParameters(['media: must be a string (base64 of the file)']);
    return invalidParameters([`${this.key}: must be a ${jsonTypeOf(this.spec.fields.shape[this.key!] as z.ZodType)}`]);
  }

  /** Problems of a complete body (missing required fields), all at once. */
  missing(): string[] {
    if (!this.done) return ['request body: incomplete JSON'];
    const required = Object.entries(this.spec.fields.shape)
      .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
      .map(([key]) => key);
    return [...required, 'media'].filter((k) => !this.seen.has(k)).map((k) => `${k}: required${k === 'media' ? ' (base64 of the file)' : ''}`);
  }
}

/**
 * Feeds the parser's tokens to the reader synchronously (a base64 string is tens of thousands of
 * tokens: awaiting each would cost more than parsing), pausing the parser while a message is sent.
 */
function consume(tokens: NodeJS.ReadableStream & { destroy(): void }, reader: BodyReader): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      tokens.pause();
      reject(err);
    };
    tokens.on('data', (token: Token) => {
      if (failed) return;
      let sending: Promise<void> | void;
      try {
        sending = reader.token(token);
      } catch (err) {
        return fail(err);
      }
      if (sending) {
        tokens.pause();
        sending.then(() => failed || tokens.resume(), fail);
      }
    });
    tokens.once('end', () => failed || resolve());
    tokens.once('error', fail);
  });
}

/** Reads the rest of a refused body (small ones) so the client receives the answer; closes the connection otherwise. */
async function settleBody(req: Request, res: Response, received: number): Promise<void> {
  if (req.complete || req.readableEnded) return;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared - received <= DRAIN_LIMIT) {
    req.unpipe();
    req.resume();
    await Promise.race([once(req, 'end'), once(req, 'close'), new Promise((r) => setTimeout(r, 10_000))]);
    return;
  }
  res.setHeader('Connection', 'close');
}

/** Consumes a point of the route's bucket (like every table route), recording the RateLimit-* headers. */
async function consumeBucket(route: Route, principal: Principal, res: Response, limits: RateLimits): Promise<void> {
  const bucket = route.bucket;
  if (!bucket) return;
  try {
    recordLimit(res, await limits.consume(bucket, BUCKETS[bucket], principal.tokenId));
  } catch (err) {
    const state = limitStateOf(err);
    if (state) recordLimit(res, state);
    throw err;
  }
}

/**
 * The handler of a streamed upload route (POST /media/uploads, /<platform>/media_uploads,
 * /linkedin/{image|video}_uploads): authenticates, authorizes and rate-limits like every route, then
 * parses the JSON body as it arrives (stream-json), validates the small fields as they complete,
 * decodes `media` incrementally and streams the bytes to the backend, which checks type and size as
 * they come. At no point does a whole body or file sit in memory; an over-limit body is refused from
 * its Content-Length or as soon as it passes the limit; any refusal cancels the backend call, so
 * nothing is kept.
 */
export function streamedUploadHandler(route: Route, spec: UploadSpec, deps: { authenticator: Authenticator; clients: Clients; limits: RateLimits }): RequestHandler {
  const limit = bodyLimitFor(spec.maxBytes);
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than this endpoint accepts (${limit} bytes)`);
  return async (req, res) => {
    const principal = await deps.authenticator.authenticate(req.headers.authorization, { mcp: isInProcess(req) });
    authorize(route, principal);
    let received = 0;
    let sink: UploadSink | undefined;
    try {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) throw tooLarge();
      await consumeBucket(route, principal, res, deps.limits);
      sink = await spec.open({ clients: deps.clients, principal });
      const reader = new BodyReader(spec, sink);
      const tokens = parserModule.asStream({ packValues: false, streamValues: true });
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) tokens.destroy(tooLarge());
      });
      // A client that goes away mid-body ends the parse (and so the gRPC call, which is cancelled below).
      req.once('close', () => {
        if (!req.complete) tokens.destroy(new AppError('INVALID_PARAMETERS', 'The request body ended early (the connection closed)'));
      });
      req.pipe(tokens);
      try {
        await consume(tokens, reader);
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('INVALID_PARAMETERS', `Request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        tokens.destroy();
      }
      const missing = reader.missing();
      if (missing.length) throw invalidParameters(missing, 'Invalid request body');
      const answer = await sink.finish();
      sink = undefined;
      res.status(route.status).json(answer);
    } catch (err) {
      sink?.cancel();
      await settleBody(req, res, received);
      throw err;
    }
  };
}
