import { once } from 'node:events';
import type { UploadMediaRequest, UploadMediaResponse } from '@spa/contracts/media/v1/media';
import { AppError, invalidParameters } from '@spa/errors';
import type { ClientStreamCall } from '@spa/grpc';
import { maxUploadBytes, UPLOAD_PLATFORMS, type UploadPlatform } from '@spa/platforms';
import type { Request, RequestHandler, Response } from 'express';
import parserModule from 'stream-json/parser.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { Clients } from '../clients.js';
import type { Route } from '../routes/route.js';
import { Base64Decoder } from './base64-decoder.js';
import { authorize } from './policy.js';
import { validate } from './validate.js';
import type { z } from 'zod';

/** How a base64 upload route treats its body. */
export interface UploadSpec {
  /** The platform of a platform-scoped route; undefined: the body's `platform` field. */
  platform?: UploadPlatform;
  requireConnectedAccount: boolean;
  imagesOnly: boolean;
  /** The small fields of the body (everything but `media`), validated as they arrive. */
  fields: z.ZodObject;
}

const specs = new WeakMap<Route, UploadSpec>();

/** Marks a table route as a streamed base64 upload (its JSON body is parsed as it arrives, never held whole). */
export function streamedUpload(route: Route, spec: UploadSpec): Route {
  specs.set(route, spec);
  return route;
}

export const uploadSpecOf = (route: Route): UploadSpec | undefined => specs.get(route);

/** Base64 length of `bytes` bytes, plus room for the other fields and JSON syntax. */
const FIELD_ROOM = 4096;
export const bodyLimitFor = (platform: UploadPlatform | undefined): number =>
  Math.ceil(Math.max(...(platform ? [platform] : UPLOAD_PLATFORMS).map(maxUploadBytes)) / 3) * 4 + FIELD_ROOM;

/** Decoded bytes sent per gRPC message. */
const MESSAGE_BYTES = 192 * 1024;
/** Base64 characters decoded at once (the decoded bytes are then sent in MESSAGE_BYTES messages). */
const TEXT_BATCH = 64 * 1024;
/** Longest small field (platform, content_type) or key read. */
const MAX_FIELD_CHARS = 256;
/** A refused body smaller than this is read to its end so the client surely sees the answer; a larger one closes the connection. */
const DRAIN_LIMIT = 8 * 1024 * 1024;

type Token = { name: string; value?: unknown };

/** Turns the JSON body into upload messages: small fields when complete, `media` as decoded chunks. */
class BodyReader {
  private depth = 0;
  private key: string | undefined;
  private keyText = '';
  private inKey = false;
  private value: { key: string; text: string } | undefined;
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
    private readonly send: (message: Partial<UploadMediaRequest>) => Promise<void>,
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
        else this.value = { key: this.key!, text: '' };
        return;
      case 'stringChunk':
        return this.chunk(String(t.value));
      case 'endString':
        return this.endString();
      case 'startNumber':
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        throw this.wrongType();
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

  private async endString(): Promise<void> {
    // (async: an end of string sends a field or the last bytes; strings are few.)
    if (this.decoder) {
      await this.decodeText();
      await this.queue(this.decoder.end());
      await this.flush();
      this.decoder = undefined;
      return;
    }
    const { key, text } = this.value!;
    this.value = undefined;
    const field = this.spec.fields.shape[key] as z.ZodType;
    const value = validate(field, text, key);
    await this.send(key === 'platform' ? { platform: String(value) } : { contentType: String(value) });
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
    await this.send({ chunk });
  }

  private wrongType(): AppError {
    if (this.depth === 0) return invalidParameters(['request body: must be a JSON object']);
    return invalidParameters([`${this.key}: must be a string${this.key === 'media' ? ' (base64 of the file)' : ''}`]);
  }

  /** Problems of a complete body (missing fields), all at once. */
  missing(): string[] {
    if (!this.done) return ['request body: incomplete JSON'];
    return [...Object.keys(this.spec.fields.shape), 'media']
      .filter((k) => !this.seen.has(k))
      .map((k) => `${k}: required${k === 'media' ? ' (base64 of the file)' : ''}`);
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

/**
 * The handler of a streamed upload route: authenticates and authorizes like every route, then parses
 * the JSON body as it arrives (stream-json), decodes `media` incrementally and streams the bytes to
 * the media service, which checks type and size as they come. At no point does a whole body or file
 * sit in memory; an over-limit body is refused from its Content-Length or as soon as it passes the limit.
 */
export function streamedUploadHandler(route: Route, spec: UploadSpec, deps: { authenticator: Authenticator; clients: Clients }): RequestHandler {
  const limit = bodyLimitFor(spec.platform);
  return async (req, res) => {
    const principal = await deps.authenticator.authenticate(req.headers.authorization);
    authorize(route, principal);
    let received = 0;
    let call: ClientStreamCall<UploadMediaRequest, UploadMediaResponse> | undefined;
    try {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than this endpoint accepts (${limit} bytes)`);
      }
      const stream = deps.clients.media.clientStream('uploadMedia');
      call = stream;
      const send = (m: Partial<UploadMediaRequest>) =>
        stream.write({ workspaceId: 0, requireConnectedAccount: false, chunk: Buffer.alloc(0), imagesOnly: false, complete: false, ...m });
      await send({
        workspaceId: principal.workspaceId,
        requireConnectedAccount: spec.requireConnectedAccount,
        imagesOnly: spec.imagesOnly,
        ...(spec.platform ? { platform: spec.platform } : {}),
      });
      const reader = new BodyReader(spec, send);
      const tokens = parserModule.asStream({ packValues: false, streamValues: true });
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) tokens.destroy(new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than this endpoint accepts (${limit} bytes)`));
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
      await send({ complete: true });
      const { media } = await stream.end();
      call = undefined;
      res.status(route.status).json({
        url: media!.url,
        r2_key: media!.r2Key,
        content_type: media!.contentType,
        size_bytes: media!.sizeBytes,
        width: media!.width || null,
        height: media!.height || null,
      });
    } catch (err) {
      call?.cancel();
      await settleBody(req, res, received);
      throw err;
    }
  };
}
