import type { PlatformStylesServiceClient } from '@spa/contracts/accounts/v1/platform_styles';
import type { PromiseClient } from '@spa/grpc';
import { defaultStyle, EMOJI_LEVELS, IMAGE_ASPECTS, LINE_BREAK_STYLES, type PlatformStyle } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import type { PlatformStyles } from '../../domain/writing/ports.js';

const oneOf = <T extends string>(allowed: readonly T[], value: string, fallback: T): T => ((allowed as readonly string[]).includes(value) ? (value as T) : fallback);

/** PlatformStyles over accounts' PlatformStylesService: one GetPlatformStyle per generation request. */
export class GrpcPlatformStyles implements PlatformStyles {
  constructor(private readonly client: Pick<PromiseClient<PlatformStylesServiceClient>, 'getPlatformStyle'>) {}

  async style(workspaceId: number, platform: Platform): Promise<PlatformStyle> {
    const { platformStyle: s } = await this.client.getPlatformStyle({ workspaceId, platform });
    const fallback = defaultStyle(platform);
    if (!s) return fallback;
    return {
      lengthTarget: s.lengthTarget > 0 ? s.lengthTarget : fallback.lengthTarget,
      hashtagCount: Math.max(0, s.hashtagCount),
      emoji: oneOf(EMOJI_LEVELS, s.emoji, fallback.emoji),
      lineBreaks: oneOf(LINE_BREAK_STYLES, s.lineBreaks, fallback.lineBreaks),
      callToAction: s.callToAction,
      callToActionText: s.callToActionText ?? null,
      imageAspect: oneOf(IMAGE_ASPECTS, s.imageAspect, fallback.imageAspect),
    };
  }
}
