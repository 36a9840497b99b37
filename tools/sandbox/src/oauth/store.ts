import { createHash, randomBytes } from 'node:crypto';

interface Code {
  platform: string;
  account: string;
  clientId: string;
  redirectUri: string;
  challenge?: string | undefined;
  expiresAt: number;
  used: boolean;
  /** Tokens issued for this code (revoked if the code is replayed, RFC 6749 §4.1.2). */
  issued: string[];
}

interface Token {
  platform: string;
  account: string;
  kind: 'access' | 'refresh';
  expiresAt: number | undefined;
  issuedAt: number;
  alive: boolean;
}

export type RefreshRefusal = 'invalid_grant' | 'checkpoint' | 'server_error' | 'rate_limited';

/** The sandbox's authorization server memory: codes, issued tokens, refresh log, refusals to inject. */
export class SandboxOAuth {
  readonly codes = new Map<string, Code>();
  readonly tokens = new Map<string, Token>();
  /** Every refresh the token endpoint honoured (for single-flight tests). */
  readonly refreshes: Array<{ platform: string; account: string; at: string }> = [];
  /** Token requests refused on purpose: the next `times` refreshes of `platform` get `answer`. */
  readonly refusals: Array<{ platform: string; answer: RefreshRefusal; remaining: number }> = [];
  accessTtlSeconds = 3600;
  readonly consented = new Set<string>();

  /** True the first time an account of `platform` authorizes the app. */
  firstConsent(platform: string, account: string): boolean {
    const key = `${platform}:${account}`;
    if (this.consented.has(key)) return false;
    this.consented.add(key);
    return true;
  }

  issueCode(c: Omit<Code, 'expiresAt' | 'used' | 'issued'>): string {
    const code = `sbx_code_${randomBytes(12).toString('base64url')}`;
    this.codes.set(code, { ...c, expiresAt: Date.now() + 60_000, used: false, issued: [] });
    return code;
  }

  /** Redeems a code once; a second redemption revokes what the first one issued. */
  redeem(code: string, clientId: string, redirectUri: string, verifier: string | undefined): { ok: true; platform: string; account: string; grant: Code } | { ok: false; reason: string } {
    const c = this.codes.get(code);
    if (!c) return { ok: false, reason: 'authorization code unknown' };
    if (c.used) {
      for (const t of c.issued) this.revoke(t);
      return { ok: false, reason: 'authorization code already used' };
    }
    c.used = true;
    if (c.expiresAt < Date.now()) return { ok: false, reason: 'authorization code expired' };
    if (c.clientId !== clientId) return { ok: false, reason: 'code issued to another client' };
    if (c.redirectUri !== redirectUri) return { ok: false, reason: 'redirect_uri does not match the authorization request' };
    if (c.challenge) {
      if (!verifier) return { ok: false, reason: 'code_verifier missing' };
      if (createHash('sha256').update(verifier).digest('base64url') !== c.challenge) return { ok: false, reason: 'code_verifier does not match code_challenge' };
    }
    return { ok: true, platform: c.platform, account: c.account, grant: c };
  }

  issue(platform: string, account: string, kind: 'access' | 'refresh', ttlSeconds?: number, grant?: { issued: string[] }): string {
    const token = `sbx_${kind === 'access' ? 'at' : 'rt'}_${randomBytes(18).toString('base64url')}`;
    this.tokens.set(token, { platform, account, kind, expiresAt: ttlSeconds ? Date.now() + ttlSeconds * 1000 : undefined, issuedAt: Date.now(), alive: true });
    grant?.issued.push(token);
    return token;
  }

  /** The account behind a live access token of `platform`; 'expired' for a dead one; undefined if not ours. */
  accountOf(platform: string, token: string): string | 'expired' | undefined {
    const t = this.tokens.get(token);
    if (!t || t.kind !== 'access') return undefined;
    if (t.platform !== platform || !t.alive || (t.expiresAt !== undefined && t.expiresAt <= Date.now())) return 'expired';
    return t.account;
  }

  /** A live refresh token's owner; rotation kills it when `rotate`. */
  useRefresh(platform: string, token: string, rotate: boolean): { account: string } | undefined {
    const t = this.tokens.get(token);
    if (!t || t.kind !== 'refresh' || t.platform !== platform || !t.alive) return undefined;
    if (rotate) t.alive = false;
    this.refreshes.push({ platform, account: t.account, at: new Date().toISOString() });
    return { account: t.account };
  }

  /** A live access token (long-lived exchange) renewed: answers its owner. */
  useAccess(platform: string, token: string): { account: string } | undefined {
    const owner = this.accountOf(platform, token);
    if (!owner || owner === 'expired') return undefined;
    this.refreshes.push({ platform, account: owner, at: new Date().toISOString() });
    return { account: owner };
  }

  revoke(token: string): boolean {
    const t = this.tokens.get(token);
    if (!t) return false;
    t.alive = false;
    return true;
  }

  revokeAccount(platform: string, account: string): void {
    for (const t of this.tokens.values()) if (t.platform === platform && t.account === account) t.alive = false;
  }

  /** Makes every expiring access token (of `platform`, or all; but each account's newest with `keepNewest`) expire now; tokens that never expire (page tokens) stay. */
  expire(platform?: string, keepNewest = false): number {
    let n = 0;
    const newest = new Map<string, Token>();
    for (const t of this.tokens.values()) {
      const key = `${t.platform}:${t.account}`;
      if (t.kind === 'access' && (newest.get(key)?.issuedAt ?? -1) <= t.issuedAt) newest.set(key, t);
    }
    for (const t of this.tokens.values()) {
      if (keepNewest && newest.get(`${t.platform}:${t.account}`) === t) continue;
      if (t.kind === 'access' && t.alive && t.expiresAt !== undefined && (!platform || t.platform === platform)) {
        t.expiresAt = Date.now() - 1;
        n += 1;
      }
    }
    return n;
  }

  addRefusal(platform: string, answer: RefreshRefusal, times: number): void {
    this.refusals.push({ platform, answer, remaining: times });
  }

  takeRefusal(platform: string): RefreshRefusal | undefined {
    const r = this.refusals.find((x) => x.platform === platform && x.remaining > 0);
    if (!r) return undefined;
    r.remaining -= 1;
    return r.answer;
  }

  reset(): void {
    this.codes.clear();
    this.tokens.clear();
    this.refreshes.length = 0;
    this.refusals.length = 0;
    this.consented.clear();
    this.accessTtlSeconds = 3600;
  }
}
