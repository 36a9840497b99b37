export type { Counting, MediaFacts, MediaLimits, MediaRule, PlatformCapability, PollRules, PostOptions } from './types.js';
export { CAPABILITIES } from './capabilities.js';
export { presentCapabilities } from './present.js';
export { countCharacters, countCodePoints, utf8ByteLength } from './count.js';
export { checkMediaFacts, checkPostContent, type PostContentInput } from './check.js';
export { isHttpUrl, MAX_LINK_LENGTH } from './links.js';
export { POLL_MINUTES } from './polls.js';
export { IMAGES_ONLY_UPLOAD_PLATFORMS, UPLOAD_PLATFORMS, maxUploadBytes, ruleAccepts, uploadRules, type UploadKind, type UploadPlatform } from './uploads.js';
export { CREDENTIAL_PLATFORMS, OAUTH_PLATFORMS, classifyGrantError, clientEnvNames, oauthFacts, type InvalidGrantShape, type OAuthPlatformFacts, type RefreshStyle } from './oauth.js';
export {
  EMOJI_LEVELS,
  IMAGE_ASPECTS,
  LINE_BREAK_STYLES,
  MAX_CALL_TO_ACTION_TEXT,
  MAX_STYLE_HASHTAGS,
  defaultStyle,
  styleLengthLimit,
  styleProblems,
  type EmojiLevel,
  type ImageAspect,
  type LineBreakStyle,
  type PlatformStyle,
} from './styles.js';
export {
  BOARD_ID_PATTERN,
  MAX_BOARD_ID_LENGTH,
  MEDIA_FITS,
  PLATFORM_OPTION_FIELDS,
  POST_OPTION_KEYS,
  REQUIRED_POST_OPTIONS,
  TIKTOK_PRIVACY_LEVELS,
  YOUTUBE_PRIVACY_STATUSES,
  checkPostOptions,
  postOptionProblems,
  postOptionsOf,
  type OptionCheck,
  type OptionProblem,
  type PostOptionKey,
} from './options.js';
export { CONVERTIBLE_IMAGE_TYPES, CONVERTIBLE_VIDEO_TYPES, mediaHandling, type MediaHandling } from './media-handling.js';
export { sandboxBoardId } from './sandbox-ids.js';
