import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, invalidParameters, notFound } from '@spa/errors';
import { CAPABILITIES, checkMediaFacts, type MediaFacts } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { detectType, headOf, SNIFF_BYTES, sniffType } from './inspect.js';
import { isMediaKey, variantKey } from './keys.js';
import { settled } from './manage-media.js';
import type { MediaRecord, VariantRecord } from './model.js';
import type { MediaDeps } from './ports.js';
import { decidePreset, presetExt, presetId, type Fit, type Preset } from './presets.js';

/** The file to publish on a platform: the original, or its variant. */
export interface PreparedMedia {
  key: string;
  facts: MediaFacts;
  converted: boolean;
  url: string;
}

/** How often a caller waiting for another's conversion looks again. */
const WAIT_POLL_MS = 200;

/** A scratch folder under the staging directory, removed whatever happens. */
async function withScratch<T>(deps: MediaDeps, work: (dir: string) => Promise<T>): Promise<T> {
  await mkdir(deps.stagingDir, { recursive: true });
  const dir = await mkdtemp(path.join(deps.stagingDir, 'prepare-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Copies a stored object to a local file. */
async function download(deps: MediaDeps, key: string, file: string): Promise<void> {
  const object = await deps.storage.get(key);
  if (!object) throw notFound('Media file');
  await pipeline(object.body, createWriteStream(file, { flags: 'wx' }));
}

/** Facts of a file on disk: its real type sniffed from its first bytes, then probed. */
async function factsOfFile(deps: MediaDeps, file: string): Promise<MediaFacts> {
  const head = await headOf(file, SNIFF_BYTES);
  const found = await detectType(head);
  if (found?.contentType === 'application/pdf') return { kind: 'document', content_type: found.contentType, bytes: (await stat(file)).size };
  const sniffed = await sniffType(head);
  return deps.tools.probe(file, sniffed);
}

/** The facts of a stored file: kept at upload, or probed now (a record stored before facts were kept) and kept. */
async function factsOf(deps: MediaDeps, record: MediaRecord): Promise<MediaFacts> {
  if (record.facts) return record.facts;
  const facts = await withScratch(deps, async (dir) => {
    const file = path.join(dir, 'source');
    await download(deps, record.key, file);
    return factsOfFile(deps, file);
  });
  await deps.store.saveFacts(record.key, facts);
  return facts;
}

/**
 * Converts a claimed variant: the original is copied to scratch space, converted, probed, and stored under the
 * variant's key; the record becomes `ready`. The lease is renewed while it works. On any failure the claim is
 * removed (and whatever was stored), so a later call converts again.
 */
async function convertClaimed(deps: MediaDeps, record: MediaRecord, source: MediaFacts, preset: Preset, key: string): Promise<MediaFacts> {
  const renew = setInterval(() => void deps.store.touchVariant(key, deps.clock.now()).catch(() => undefined), Math.max(deps.variantLeaseMs / 4, 100));
  try {
    const facts = await withScratch(deps, async (dir) => {
      const input = path.join(dir, 'source');
      const output = path.join(dir, `variant.${presetExt(preset)}`);
      await download(deps, record.key, input);
      await deps.tools.convert(input, source, preset, output).catch((err: unknown) => {
        // The file itself could not be converted (its decoder failed, or it ran past the bound): a refusal, not a retry.
        if (err instanceof AppError) throw err;
        throw invalidParameters([`media ${record.key} could not be converted to ${preset.to} (${err instanceof Error ? err.message : String(err)})`]);
      });
      const made = await factsOfFile(deps, output);
      await deps.storage.put(key, createReadStream(output), made.bytes, made.content_type);
      return made;
    });
    await deps.store.variantReady(key, facts);
    return facts;
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    await deps.store.dropVariant(key).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(renew);
  }
}

/**
 * The variant of a stored file for a preset, made once whoever asks: the first caller inserts its record
 * (unique key) and converts; every other caller waits for it to be ready and reads it. A maker that died
 * (its lease not renewed) leaves a claim that the next caller removes and takes over.
 */
async function variantOf(deps: MediaDeps, record: MediaRecord, source: MediaFacts, preset: Preset): Promise<{ key: string; facts: MediaFacts }> {
  const id = presetId(preset);
  const key = variantKey(record.key, id, presetExt(preset));
  for (;;) {
    const found = await deps.store.findVariant(key);
    if (found?.status === 'ready' && found.facts) return { key, facts: found.facts };
    if (!found) {
      const now = deps.clock.now();
      const claim: VariantRecord = { key, sourceKey: record.key, presetId: id, status: 'converting', createdAt: now, aliveAt: now };
      if (await deps.store.claimVariant(claim)) return { key, facts: await convertClaimed(deps, record, source, preset, key) };
      continue;
    }
    if (deps.clock.now().getTime() - found.aliveAt.getTime() > deps.variantLeaseMs) {
      await deps.store.dropVariant(key, found.aliveAt);
      continue;
    }
    await sleep(WAIT_POLL_MS);
  }
}

function parseInput(input: { key: string; platform: string; fit: string }): { platform: Platform; fit: Fit } {
  const problems: string[] = [];
  if (!(PLATFORMS as readonly string[]).includes(input.platform)) problems.push(`platform: must be one of ${PLATFORMS.join(', ')}`);
  if (!['', 'pad', 'crop'].includes(input.fit)) problems.push('fit: must be pad or crop');
  if (problems.length) throw invalidParameters(problems);
  return { platform: input.platform as Platform, fit: input.fit === 'crop' ? 'crop' : 'pad' };
}

/**
 * A stored file as `platform` takes it. Its facts (probed at upload, or now) are held against the platform's rule
 * for its kind (capability table): a file that fits is used as it is; one that can be made to fit is converted to
 * the platform's preset, once per (file, preset), and the variant reused by every caller; what cannot be fixed
 * without changing the content (a video's length) is refused, INVALID_PARAMETERS naming the rule. The result is
 * checked with the platform's rule again (`checkMediaFacts`): whatever still breaks it is refused the same way.
 */
export async function prepareMedia(deps: MediaDeps, input: { key: string; platform: string; fit: string }): Promise<PreparedMedia> {
  const { platform, fit } = parseInput(input);
  const record = isMediaKey(input.key) ? await settled(deps, await deps.store.find(input.key)) : undefined;
  if (!record) throw notFound('Media file');
  const facts = await factsOf(deps, record);
  const where = `media ${record.key}`;
  const rule = CAPABILITIES[platform].media?.[facts.kind];
  if (!rule) throw invalidParameters([`${where} is ${facts.kind === 'image' ? 'an image' : `a ${facts.kind}`}, which ${platform} does not take`]);
  const decision = decidePreset(rule, facts, fit);
  if (decision.action === 'refuse') throw invalidParameters(decision.reasons.map((reason) => `${where} ${reason} on ${platform}`));
  const prepared = decision.action === 'use' ? { key: record.key, facts } : await variantOf(deps, record, facts, decision.preset);
  const problems = checkMediaFacts(platform, prepared.facts, prepared.key === record.key ? where : `${where} (converted)`);
  if (problems.length) throw invalidParameters(problems);
  return { ...prepared, converted: prepared.key !== record.key, url: await deps.storage.publicUrl(prepared.key) };
}
