import { ConnectorError, type MediaItem, type PublishRequest } from '../connectors/types.js';
import type { MediaPort } from './ports.js';

/**
 * The request with every image and video of its parts as the target's platform takes it (`MediaPort.prepare`):
 * converted where needed, each carrying its facts. Documents go as they are. An item used twice with the same
 * fit is prepared once. A refusal (ConnectorError `rejected`) ends the target, naming the rule; so does an item
 * given as one kind that is another (an "image" whose bytes are a video), which no connector could publish as given.
 */
const noun = (kind: string) => (kind === 'image' ? 'an image' : `a ${kind}`);

function checkedKind(prepared: MediaItem, item: MediaItem, platform: string): MediaItem {
  if (prepared.facts && prepared.facts.kind !== item.type) {
    throw new ConnectorError('rejected', `${platform}: media ${item.r2Key} is given as ${noun(item.type)} but is ${noun(prepared.facts.kind)}`);
  }
  return prepared;
}

export async function prepareRequest(media: MediaPort | undefined, request: PublishRequest): Promise<PublishRequest> {
  if (!media) return request;
  const { platform } = request.target;
  const asked = new Map<string, Promise<MediaItem>>();
  const prepare = (item: MediaItem, fit: 'pad' | 'crop'): Promise<MediaItem> => {
    if (item.type === 'document') return Promise.resolve(item);
    const key = `${fit}:${item.r2Key}`;
    let prepared = asked.get(key);
    if (!prepared) asked.set(key, (prepared = media.prepare(item, platform, fit).then((m) => checkedKind(m, item, platform))));
    return prepared;
  };
  const parts = await Promise.all(
    request.parts.map(async (part) => {
      const fit = part.options?.media_fit ?? 'pad';
      return { ...part, media: await Promise.all(part.media.map((item) => prepare(item, fit))) };
    }),
  );
  return { ...request, parts };
}
