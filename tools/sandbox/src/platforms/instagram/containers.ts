import type { InspectedMedia } from '../../media/inspect.js';
import { fetchMedia } from '../../media/receive.js';
import { mediaViolation } from '../../media/rules.js';
import type { SandboxRequest, SandboxResponse } from '../../router.js';
import type { SandboxState } from '../../state.js';
import { createContainer, graphError, type Container } from '../meta-graph.js';
import { INSTAGRAM_IMAGE, INSTAGRAM_LIMITS, INSTAGRAM_VIDEO } from './rules.js';

/** What the Instagram stand-in knows of a container beyond the shared Graph container: its media as Instagram read it, why it failed, when it was made. */
export interface ContainerInfo {
  media?: InspectedMedia;
  error?: string;
  createdAt: Date;
}
const infos = new WeakMap<Container, ContainerInfo>();
export const containerInfo = (container: Container): ContainerInfo => infos.get(container) ?? infos.set(container, { createdAt: new Date() }).get(container)!;

export const isExpired = (container: Container) => !container.published && Date.now() - containerInfo(container).createdAt.getTime() > INSTAGRAM_LIMITS.containerHours * 3_600_000;

/** Instagram's refusal of an image, by the rule it breaks (error codes as Instagram documents them). */
function imageRefusal(problem: string): SandboxResponse {
  if (/aspect ratio/.test(problem)) return graphError(400, `The submitted image cannot be published: ${problem}. Submit an image with a valid aspect ratio.`, 36003, { error_subcode: 2207009 });
  if (/file size/.test(problem)) return graphError(400, `The image is too large to download: ${problem}.`, 36001, { error_subcode: 2207004 });
  return graphError(400, `Only photo or video can be accepted as media type: ${problem}.`, 9004, { error_subcode: 2207005 });
}

/**
 * POST /:user/media for an image or a video: the media is pulled from its URL now. An image breaking Instagram's rules
 * is refused at once; a video becomes a container that ends in ERROR when it breaks the Reels rules.
 */
export async function mediaContainer(state: SandboxState, req: SandboxRequest, params: Record<string, string>): Promise<SandboxResponse> {
  const url = params.video_url ?? params.image_url!;
  const fetched = await fetchMedia(url);
  if (params.image_url) {
    if ('error' in fetched) return graphError(400, `Media download has failed. The media URI doesn't meet our requirements (${fetched.error}).`, 9004, { error_subcode: 2207052 });
    const problem = mediaViolation(fetched.media, INSTAGRAM_IMAGE);
    if (problem) return imageRefusal(problem);
  }
  const container = createContainer(state, req, params);
  const info = containerInfo(container);
  if ('error' in fetched) info.error = `media could not be fetched from the URI (${fetched.error})`;
  else {
    info.media = fetched.media;
    if (params.video_url) info.error = mediaViolation(fetched.media, INSTAGRAM_VIDEO);
  }
  if (info.error) container.failed = true;
  return { status: 200, body: { id: container.id } };
}

/** Hashtags and @ mentions of a caption, counted as Instagram limits them. */
export function captionProblem(caption: string | undefined): string | undefined {
  if (!caption) return undefined;
  if ([...caption].length > INSTAGRAM_LIMITS.caption) return `(#100) The caption is longer than ${INSTAGRAM_LIMITS.caption} characters`;
  if ((caption.match(/(^|\s)#[\p{L}\p{N}_]+/gu) ?? []).length > INSTAGRAM_LIMITS.hashtags) return `(#100) The caption has more than ${INSTAGRAM_LIMITS.hashtags} hashtags`;
  if ((caption.match(/(^|\s)@[\w.]+/g) ?? []).length > INSTAGRAM_LIMITS.mentions) return `(#100) The caption has more than ${INSTAGRAM_LIMITS.mentions} @ mentions`;
  return undefined;
}
