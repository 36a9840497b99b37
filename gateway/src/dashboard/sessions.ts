import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A signed-in browser: who, which workspace it shows, and the token every change must echo (CSRF). */
export interface Session {
  id: string;
  userId: number;
  workspaceId: number;
  csrfToken: string;
  createdAt: string;
}

export interface SessionLifetimes {
  /** A session unused this long ends. */
  idleSec: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteSec: number;
}

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * Dashboard sessions in Redis: `<prefix>:dash:s:<id>` holds the session (expiring when idle), and
 * `<prefix>:dash:u:<user>` the ids of the user's sessions, so that one sign-out ends them all.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly lifetimes: SessionLifetimes,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:dash:s:${id}`;
  }
  private userKey(userId: number): string {
    return `${this.prefix}:dash:u:${userId}`;
  }

  async create(userId: number, workspaceId: number, now = new Date()): Promise<Session> {
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      userId,
      workspaceId,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: now.toISOString(),
    };
    await this.redis
      .multi()
      .set(this.key(session.id), JSON.stringify(session), 'EX', this.lifetimes.idleSec)
      .sadd(this.userKey(userId), session.id)
      .expire(this.userKey(userId), this.lifetimes.absoluteSec)
      .exec();
    return session;
  }

  /** The live session of this id (its idle clock restarted), or null. */
  async get(id: string, now = new Date()): Promise<Session | null> {
    if (!SESSION_ID.test(id)) return null;
    const raw = await this.redis.get(this.key(id));
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    const age = (now.getTime() - Date.parse(session.createdAt)) / 1000;
    if (age >= this.lifetimes.absoluteSec) {
      await this.destroy(session);
      return null;
    }
    await this.redis.expire(this.key(id), Math.min(this.lifetimes.idleSec, Math.ceil(this.lifetimes.absoluteSec - age)));
    return session;
  }

  /** Switches the workspace shown (membership is checked by the caller). */
  async setWorkspace(session: Session, workspaceId: number): Promise<Session> {
    const next = { ...session, workspaceId };
    // XX: a session ended meanwhile (sign-out everywhere) is not brought back.
    const ok = await this.redis.set(this.key(session.id), JSON.stringify(next), 'EX', this.lifetimes.idleSec, 'XX');
    return ok ? next : session;
  }

  async destroy(session: Session): Promise<void> {
    await this.redis.multi().del(this.key(session.id)).srem(this.userKey(session.userId), session.id).exec();
  }

  /** Ends every session of the user (sign-out everywhere); answers how many there were. */
  async destroyAll(userId: number): Promise<number> {
    const ids = await this.redis.smembers(this.userKey(userId));
    const multi = this.redis.multi().del(this.userKey(userId));
    for (const id of ids) multi.del(this.key(id));
    const results = (await multi.exec()) ?? [];
    return results.slice(1).filter(([, n]) => n === 1).length;
  }
}
