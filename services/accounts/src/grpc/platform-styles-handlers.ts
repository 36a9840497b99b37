import { PlatformStylesServiceService, type PlatformStyle as PlatformStyleMessage } from '@spa/contracts/accounts/v1/platform_styles';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { EmojiLevel, ImageAspect, LineBreakStyle } from '@spa/platforms';
import { getPlatformStyle, listPlatformStyles, resetPlatformStyle, updatePlatformStyle, type PlatformStylesDeps, type PlatformStyleView } from '../domain/platform-styles.js';

const styleMessage = (s: PlatformStyleView): PlatformStyleMessage => ({
  platform: s.platform,
  lengthTarget: s.lengthTarget,
  hashtagCount: s.hashtagCount,
  emoji: s.emoji,
  lineBreaks: s.lineBreaks,
  callToAction: s.callToAction,
  callToActionText: s.callToActionText ?? undefined,
  imageAspect: s.imageAspect,
  customized: s.customized,
  updatedAt: s.updatedAt?.toISOString(),
});

/** gRPC transport of platform styles (accounts.v1.PlatformStylesService). Values are checked by the domain. */
export function platformStylesService(deps: PlatformStylesDeps): ServiceBinding {
  return bindService('accounts.v1.PlatformStylesService', PlatformStylesServiceService, {
    listPlatformStyles: async (req) => ({ platformStyles: (await listPlatformStyles(deps, req.workspaceId)).map(styleMessage) }),
    getPlatformStyle: async (req) => ({ platformStyle: styleMessage(await getPlatformStyle(deps, req.workspaceId, req.platform)) }),
    updatePlatformStyle: async (req) => ({
      platformStyle: styleMessage(
        await updatePlatformStyle(deps, req.workspaceId, req.platform, {
          lengthTarget: req.lengthTarget,
          hashtagCount: req.hashtagCount,
          emoji: req.emoji as EmojiLevel | undefined,
          lineBreaks: req.lineBreaks as LineBreakStyle | undefined,
          callToAction: req.callToAction,
          callToActionText: req.clearCallToActionText ? null : req.callToActionText,
          imageAspect: req.imageAspect as ImageAspect | undefined,
        }),
      ),
    }),
    resetPlatformStyle: async (req) => ({ platformStyle: styleMessage(await resetPlatformStyle(deps, req.workspaceId, req.platform)) }),
  });
}
