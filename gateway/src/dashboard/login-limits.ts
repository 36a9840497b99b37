import { AppError } from '@spa/errors';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Sign-in attempts: 10 per 15 minutes for one email from one IP (a success clears it), and 50 per hour
 * from one IP whatever the email; in Redis, shared by every gateway (in-process while Redis is down).
 */
export class LoginLimits {
  private readonly perAccount: RateLimiterRedis;
  private readonly perIp: RateLimiterRedis;

  constructor(redis: Redis, prefix: string, limits = { perAccount: 10, perIp: 50 }) {
    const make = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:dash:login:${name}`,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}:dash:login:${name}`, points, duration }),
      });
    this.perAccount = make('account', limits.perAccount, 15 * 60);
    this.perIp = make('ip', limits.perIp, 60 * 60);
  }

  private accountKey(ip: string, email: string): string {
    return `${ip}|${email.trim().toLowerCase()}`;
  }

  /** Counts one attempt; RATE_LIMIT_EXCEEDED (with retry_after) when either limit is spent. */
  async attempt(ip: string, email: string): Promise<void> {
    try {
      await this.perIp.consume(ip);
      await this.perAccount.consume(this.accountKey(ip, email));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new AppError('RATE_LIMIT_EXCEEDED', `Too many sign-in attempts; try again in ${retryAfter} s`, { retryAfter });
    }
  }

  /** A successful sign-in clears the email's count from that IP. */
  async succeeded(ip: string, email: string): Promise<void> {
    await this.perAccount.delete(this.accountKey(ip, email));
  }
}
