import type { SocialAccount } from '@spa/contracts/accounts/v1/accounts';
import { accountHealthCodec, disconnectReasonCodec, publishErrorClassCodec, refreshOutcomeCodec } from '@spa/contracts/codecs';
import { ACCOUNT_HEALTHS, DISCONNECT_REASONS, PUBLISH_ERROR_CLASSES, REFRESH_OUTCOMES } from '@spa/vocabulary';
import { z } from 'zod';

const when = z.iso.datetime({ offset: true });

/** The health fields of a social account (GET /social_accounts and /social_accounts/{id}). */
export const AccountHealthFields = {
  health: z
    .enum(ACCOUNT_HEALTHS)
    .describe(
      'ok; expiring (its token cannot be renewed without the user and expires within 7 days: reconnect before then); reauth_required (the platform refused to renew its authorization: reconnect); disconnected (revoked, expired, stopped at a platform checkpoint, or by the user: see disconnect_reason).',
    ),
  disconnect_reason: z.enum(DISCONNECT_REASONS).nullable().describe('Why it is disconnected (null while connected, and for accounts disconnected before reasons were kept).'),
  last_refresh: z
    .object({
      at: when,
      outcome: z.enum(REFRESH_OUTCOMES).describe('ok (renewed); failed (the platform could not be reached or failed: retried, the account stays ok); refused (the platform refused to renew it)'),
      error: z.string().nullable(),
    })
    .nullable()
    .describe('The last renewal of its token (by the refresh job, or after a refused publish); null before any.'),
  last_publish_error: z
    .object({
      class: z.enum(PUBLISH_ERROR_CLASSES).describe('expired or revoked (the platform refused the account’s token), rejected (the post itself), rate_limited, transient (retries ran out)'),
      at: when,
    })
    .nullable()
    .describe('The class of the last failed publish to the account; null when none failed since it was connected.'),
};

/** The health of an account as its JSON shows it. */
export function accountHealthJson(a: SocialAccount) {
  const outcome = refreshOutcomeCodec.fromProto(a.lastRefreshOutcome);
  const publishError = publishErrorClassCodec.fromProto(a.lastPublishErrorClass);
  return {
    // An accounts service built before health reports none: taken from `disconnected`.
    health: accountHealthCodec.fromProto(a.health) ?? (a.disconnected ? 'disconnected' : 'ok'),
    disconnect_reason: a.disconnected ? (disconnectReasonCodec.fromProto(a.disconnectReason) ?? null) : null,
    last_refresh: a.lastRefreshAt && outcome ? { at: a.lastRefreshAt, outcome, error: a.lastRefreshError ?? null } : null,
    last_publish_error: publishError && a.lastPublishErrorAt ? { class: publishError, at: a.lastPublishErrorAt } : null,
  };
}
