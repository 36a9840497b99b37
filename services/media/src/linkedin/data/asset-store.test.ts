import { randomBytes } from 'node:crypto';
import { connectMongo, isDuplicateKeyError, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkedInAsset } from '../domain/model.js';
import { MongoLinkedInAssetStore } from './asset-store.js';

let connection: Connection;
let store: MongoLinkedInAssetStore;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_media_li_${randomBytes(4).toString('hex')}`);
  store = new MongoLinkedInAssetStore(connection);
  await syncIndexes(connection);
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

const asset: LinkedInAsset = {
  assetUrn: 'urn:li:video:C5F1',
  workspaceId: 7,
  socialAccountId: 70,
  kind: 'video',
  contentType: 'video/mp4',
  sizeBytes: 12_345,
  ownerUrn: 'urn:li:person:seven',
  createdAt: new Date('2026-11-22T10:00:00.000Z'),
};

describe('LinkedIn asset records on the real store', () => {
  it('keeps each URN once, readable by its workspace only', async () => {
    await store.insert(asset);
    expect(await store.get(7, asset.assetUrn)).toEqual(asset);
    expect(await store.get(8, asset.assetUrn)).toBeUndefined();
    expect(await store.get(7, 'urn:li:video:unknown')).toBeUndefined();
    expect(await store.find(asset.assetUrn)).toEqual(asset);
    expect(await store.find('urn:li:video:unknown')).toBeUndefined();
    const again = await store.insert({ ...asset, workspaceId: 8 }).catch((e: unknown) => e);
    expect(isDuplicateKeyError(again)).toBe(true);
    expect(await store.get(8, asset.assetUrn)).toBeUndefined();
  });
});
