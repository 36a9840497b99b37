import { CAPABILITIES, checkMediaFacts, checkPostContent, ruleAccepts } from '@spa/platforms';
import { ConnectorError, type Connector, type ContentPart, type PublishRequest } from './types.js';

/**
 * Everything a connector's publish does before the platform's publishing call, for every platform in
 * one place: the credentials are checked with the platform (a read-only call), every media item is
 * checked against the platform's rule from the capability table (its facts as the media service probed
 * them: type, size, dimensions, aspect, duration, frame rate, codecs, frames; an item without facts is
 * fetched and its type and size checked), and every part's text must fit. A dry run stops here; nothing is created, uploaded or posted on the platform. A connector
 * may add checks of its own (`Connector.preflight`, e.g. TikTok's creator limits). Failures are
 * ConnectorErrors classified like a real publish's (`auth`, `rejected`, `transient`…).
 */
export async function preflight(connector: Connector, request: PublishRequest): Promise<void> {
  await connector.validateCredentials(request.target);
  await recheck(connector, request);
}

/**
 * The checks a publish runs again when the post's time comes, before the platform's publishing call: a
 * post approved or scheduled long ago meets today's rules (the account's creator settings, a deleted
 * board, the media as prepared for the platform). The same checks as the dry run's, less the credentials
 * call (the publish itself proves them); a refusal names the rule.
 */
export async function recheck(connector: Connector, request: PublishRequest): Promise<void> {
  const { platform } = request.target;
  const problems: string[] = [];
  for (const part of request.parts) problems.push(...(await checkPart(platform, part)));
  if (problems.length) throw new ConnectorError('rejected', `${platform}: ${problems.join('; ')}`);
  await connector.preflight?.(request);
}

async function checkPart(platform: PublishRequest['target']['platform'], part: ContentPart): Promise<string[]> {
  const caps = CAPABILITIES[platform];
  const where = `post_contents[${part.position}]`;
  const asset = (kind: string) => (part.assetUrn && part.contentType === kind ? 1 : 0);
  const count = (kind: string) => part.media.filter((m) => m.type === kind).length + asset(kind);
  const problems = checkPostContent(
    platform,
    {
      body: part.body,
      contentType: part.contentType,
      imageCount: count('image'),
      hasVideo: count('video') > 0,
      hasDocument: count('document') > 0,
      ...(part.poll ? { pollOptions: part.poll.options } : {}),
    },
    where,
  );
  if (part.firstComment !== undefined && part.firstComment !== '' && !caps.first_comment) problems.push(`${where}.first_comment: ${platform} has no first comments`);
  for (const [i, item] of part.media.entries()) {
    const rule = caps.media?.[item.type];
    if (!rule) {
      problems.push(`${where} media[${i}] is ${item.type === 'image' ? 'an image' : `a ${item.type}`}, which ${platform} does not take`);
      continue;
    }
    if (item.facts) {
      if (item.facts.kind !== item.type) problems.push(`${where} media[${i}] (${item.r2Key}) is given as ${item.type === 'image' ? 'an image' : `a ${item.type}`} but is a ${item.facts.kind}`);
      else problems.push(...checkMediaFacts(platform, item.facts, `${where} media[${i}] (${item.r2Key})`));
      continue;
    }
    let fetched: { bytes: Buffer; contentType: string };
    try {
      fetched = await item.read();
    } catch (err) {
      // The media store could not serve it now: worth another try, like a publish that could not read it.
      throw new ConnectorError('transient', `${platform}: media ${item.r2Key} could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    const contentType = fetched.contentType.split(';')[0]!.trim();
    if (!ruleAccepts(rule, contentType)) problems.push(`${where} media[${i}] (${item.r2Key}) is ${contentType}; ${platform} takes ${rule.content_types.join(', ')}`);
    if (fetched.bytes.length > rule.max_bytes) problems.push(`${where} media[${i}] (${item.r2Key}) is ${fetched.bytes.length} bytes; ${platform}'s limit is ${rule.max_bytes}`);
  }
  return problems;
}
