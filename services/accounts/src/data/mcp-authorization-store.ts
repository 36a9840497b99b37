import { IdAllocator, type Connection } from '@spa/mongo';
import { Schema, type Model } from 'mongoose';
import type { McpAuthorizationStore, McpClient, McpGrant } from '../domain/mcp-authorization.js';

interface ClientDoc {
  _id: string;
  client_name: string;
  redirect_uris: string[];
  created_at: Date;
}

interface GrantDoc {
  _id: number;
  workspace_id: number;
  user_id: number;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  scopes: string[];
  resource: string;
  created_at: Date;
  last_used_at?: Date;
  revoked_at?: Date;
  code_hash?: string;
  used_code_hash?: string;
  code_challenge: string;
  code_expires_at?: Date;
  access_hash?: string;
  access_expires_at?: Date;
  refresh_hash?: string;
  refresh_expires_at?: Date;
}

/** The grant's fields as stored. */
const FIELDS: Record<keyof Omit<McpGrant, 'id'>, keyof GrantDoc> = {
  workspaceId: 'workspace_id',
  userId: 'user_id',
  clientId: 'client_id',
  clientName: 'client_name',
  redirectUri: 'redirect_uri',
  scopes: 'scopes',
  resource: 'resource',
  createdAt: 'created_at',
  lastUsedAt: 'last_used_at',
  revokedAt: 'revoked_at',
  codeHash: 'code_hash',
  usedCodeHash: 'used_code_hash',
  codeChallenge: 'code_challenge',
  codeExpiresAt: 'code_expires_at',
  accessHash: 'access_hash',
  accessExpiresAt: 'access_expires_at',
  refreshHash: 'refresh_hash',
  refreshExpiresAt: 'refresh_expires_at',
};

const toGrant = (d: GrantDoc): McpGrant => ({
  id: d._id,
  workspaceId: d.workspace_id,
  userId: d.user_id,
  clientId: d.client_id,
  clientName: d.client_name,
  redirectUri: d.redirect_uri,
  scopes: d.scopes,
  resource: d.resource,
  createdAt: d.created_at,
  lastUsedAt: d.last_used_at ?? undefined,
  revokedAt: d.revoked_at ?? undefined,
  codeHash: d.code_hash ?? undefined,
  usedCodeHash: d.used_code_hash ?? undefined,
  codeChallenge: d.code_challenge,
  codeExpiresAt: d.code_expires_at ?? undefined,
  accessHash: d.access_hash ?? undefined,
  accessExpiresAt: d.access_expires_at ?? undefined,
  refreshHash: d.refresh_hash ?? undefined,
  refreshExpiresAt: d.refresh_expires_at ?? undefined,
});

/** A change as an update: fields set to undefined are removed. */
function updateOf(changes: Partial<McpGrant>): { $set: Record<string, unknown>; $unset: Record<string, ''> } {
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(changes)) {
    const field = FIELDS[key as keyof typeof FIELDS];
    if (!field) continue;
    if (value === undefined) $unset[field] = '';
    else $set[field] = value;
  }
  return { $set, $unset };
}

/**
 * `mcp_clients` (registered clients by id) and `mcp_grants` (one document per consent, with the hashes of its
 * current code, access token and refresh token, each found by an equality on its own index).
 */
export class MongoMcpAuthorizationStore implements McpAuthorizationStore {
  private readonly Client: Model<ClientDoc>;
  private readonly Grant: Model<GrantDoc>;
  private readonly ids: IdAllocator;

  constructor(connection: Connection) {
    this.Client = connection.model<ClientDoc>(
      'McpClient',
      new Schema<ClientDoc>(
        { _id: String, client_name: { type: String, required: true }, redirect_uris: { type: [String], required: true }, created_at: { type: Date, required: true } },
        { collection: 'mcp_clients', versionKey: false },
      ),
    );
    const grant = new Schema<GrantDoc>(
      {
        _id: Number,
        workspace_id: { type: Number, required: true },
        user_id: { type: Number, required: true },
        client_id: { type: String, required: true },
        client_name: { type: String, required: true },
        redirect_uri: { type: String, required: true },
        scopes: { type: [String], required: true },
        resource: { type: String, default: '' },
        created_at: { type: Date, required: true },
        last_used_at: Date,
        revoked_at: Date,
        code_hash: String,
        used_code_hash: String,
        code_challenge: { type: String, required: true },
        code_expires_at: Date,
        access_hash: String,
        access_expires_at: Date,
        refresh_hash: String,
        refresh_expires_at: Date,
      },
      { collection: 'mcp_grants', versionKey: false },
    );
    grant.index({ workspace_id: 1 });
    grant.index({ code_hash: 1 });
    grant.index({ used_code_hash: 1 });
    grant.index({ access_hash: 1 });
    grant.index({ refresh_hash: 1 });
    this.Grant = connection.model<GrantDoc>('McpGrant', grant);
    this.ids = new IdAllocator(connection);
  }

  async insertClient(c: McpClient): Promise<void> {
    await this.Client.create({ _id: c.clientId, client_name: c.clientName, redirect_uris: c.redirectUris, created_at: c.createdAt });
  }

  async getClient(clientId: string): Promise<McpClient | undefined> {
    const d = await this.Client.findOne({ _id: clientId }).lean<ClientDoc>();
    return d ? { clientId: d._id, clientName: d.client_name, redirectUris: d.redirect_uris, createdAt: d.created_at } : undefined;
  }

  nextGrantId(): Promise<number> {
    return this.ids.next('mcp_grants');
  }

  async insertGrant(g: McpGrant): Promise<void> {
    const doc: Record<string, unknown> = { _id: g.id };
    for (const [key, field] of Object.entries(FIELDS)) {
      const value = g[key as keyof typeof FIELDS];
      if (value !== undefined) doc[field] = value;
    }
    await this.Grant.create(doc);
  }

  async findGrantBy(field: 'codeHash' | 'usedCodeHash' | 'accessHash' | 'refreshHash', hash: string): Promise<McpGrant | undefined> {
    const d = await this.Grant.findOne({ [FIELDS[field]]: hash }).lean<GrantDoc>();
    return d ? toGrant(d) : undefined;
  }

  async updateGrantIf(id: number, expected: { field: 'codeHash' | 'refreshHash'; hash: string }, changes: Partial<McpGrant>): Promise<boolean> {
    const res = await this.Grant.updateOne({ _id: id, [FIELDS[expected.field]]: expected.hash, revoked_at: { $exists: false } }, updateOf(changes));
    return res.modifiedCount === 1;
  }

  async updateGrant(id: number, changes: Partial<McpGrant>): Promise<void> {
    await this.Grant.updateOne({ _id: id }, updateOf(changes));
  }

  async listGrants(workspaceId: number): Promise<McpGrant[]> {
    const docs = await this.Grant.find({ workspace_id: workspaceId }).lean<GrantDoc[]>();
    return docs.map(toGrant).sort((a, b) => b.id - a.id);
  }

  async getGrant(workspaceId: number, id: number): Promise<McpGrant | undefined> {
    const d = await this.Grant.findOne({ _id: id, workspace_id: workspaceId }).lean<GrantDoc>();
    return d ? toGrant(d) : undefined;
  }
}
