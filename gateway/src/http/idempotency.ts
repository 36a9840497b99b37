import { createHash } from 'node:crypto';
import { AppError } from '@spa/errors';
import type { Redis } from 'ioredis';

/** A finished answer: what is replayed for a repeated request. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

interface Record {
  fingerprint: string;
  answer?: StoredAnswer;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const TTL_SECONDS = 24 * 3600;
const WAIT_MS = 10_000;
const POLL_MS = 50;

/**
 * Idempotency-Key for POST requests, kept in Redis for 24 h per token:
 * - the first request with a key runs, and its answer (success or 4xx) is stored;
 * - the same key with the same method, path and body replays that answer;
 * - the same key with another request is 422;
 * - a duplicate that arrives while the first is still running waits for its answer, so it runs once.
 * Answers that invite a retry (429, 5xx) are not kept: the key is released.
 */
export class Idempotency {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async run(tokenId: string, key: string, request: { method: string; path: string; body: unknown }, execute: () => Promise<StoredAnswer>): Promise<StoredAnswer & { replayed: boolean }> {
    if (!KEY_PATTERN.test(key)) {
      throw new AppError('INVALID_PARAMETERS', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const redisKey = `${this.prefix}:idem:${tokenId}:${createHash('sha256').update(key).digest('base64url')}`;
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${request.path}\n${JSON.stringify(request.body ?? null)}`)
      .digest('base64url');
    const claimed = await this.call(() => this.redis.set(redisKey, JSON.stringify({ fingerprint } satisfies Record), 'EX', TTL_SECONDS, 'NX'));
    if (claimed !== 'OK') return { ...(await this.existing(redisKey, fingerprint)), replayed: true };
    let answer: StoredAnswer;
    try {
      answer = await execute();
    } catch (err) {
      const appError = err instanceof AppError ? err : undefined;
      if (!appError || appError.httpStatus >= 500 || appError.httpStatus === 429) {
        await this.redis.del(redisKey).catch(() => undefined);
        throw err;
      }
      answer = { status: appError.httpStatus, body: appError.toEnvelope() };
    }
    await this.call(() => this.redis.set(redisKey, JSON.stringify({ fingerprint, answer } satisfies Record), 'EX', TTL_SECONDS));
    return { ...answer, replayed: false };
  }

  /** The stored answer of an earlier request with the key, waiting while that request still runs. */
  private async existing(redisKey: string, fingerprint: string): Promise<StoredAnswer> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const raw = await this.call(() => this.redis.get(redisKey));
      if (raw === null) throw new AppError('SERVICE_UNAVAILABLE', 'The first request with this Idempotency-Key failed; retry it');
      const record = JSON.parse(raw) as Record;
      if (record.fingerprint !== fingerprint) {
        throw new AppError('INVALID_PARAMETERS', 'This Idempotency-Key was used with a different request; use a new key for a new request');
      }
      if (record.answer) return record.answer;
      if (Date.now() > deadline) {
        throw new AppError('SERVICE_UNAVAILABLE', 'A request with this Idempotency-Key is still in progress; retry shortly', { retryAfter: 1 });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Redis is required to honour a key: without it the request is refused rather than risk running twice. */
  private async call<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Idempotency-Key requests cannot be processed right now; retry shortly', { cause: err, retryAfter: 1 });
    }
  }
}
