import {
  AccountsServiceService,
  CredentialKind,
  type CustomRule as CustomRuleMessage,
  type PostingSchedule as PostingScheduleMessage,
  type Preferences as PreferencesMessage,
  type Principal as PrincipalMessage,
  type Workspace as WorkspaceMessage,
} from '@spa/contracts/accounts/v1/accounts';
import { disconnectReasonCodec, publishErrorClassCodec } from '@spa/contracts/codecs';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { authenticate } from '../domain/authenticate.js';
import { createApiKey, revokeApiKey } from '../domain/api-keys.js';
import { createCustomRule, deleteCustomRule, getCustomRule, listCustomRules, toggleCustomRule, updateCustomRule } from '../domain/custom-rules.js';
import type { ConnectDeps } from '../domain/connect/deps.js';
import type { CustomRule, PostingSchedule, Preferences, Principal, Workspace } from '../domain/model.js';
import { connectHandlers, socialAccountMessage } from './connect-handlers.js';
import { getPostingSchedule, listPostingSchedules, updatePostingSchedule } from '../domain/posting-schedules.js';
import { getLinkShortening } from '../domain/link-shortening.js';
import { getPreferences, updatePreferences } from '../domain/preferences.js';
import { createSite, getSite } from '../domain/sites.js';
import { connectSocialAccount, listSocialAccounts, markDisconnected, publishingCredentials, recordPublishError } from '../domain/social-accounts.js';
import { getSubscription } from '../domain/subscription.js';
import { addMember, createUser, removeMember } from '../domain/users.js';
import { createWorkspace, getWorkspace, setReviewRequired, setSubscription } from '../domain/workspaces.js';

export const workspaceMessage = (w: Workspace): WorkspaceMessage => ({
  id: w.id,
  name: w.name,
  tier: w.tier,
  subscriptionStatus: w.subscriptionStatus,
  reviewRequired: w.reviewRequired,
  ownerUserId: w.ownerUserId,
  createdAt: w.createdAt.toISOString(),
});

const scheduleMessage = (s: PostingSchedule): PostingScheduleMessage => ({
  id: s.id,
  socialAccountId: s.socialAccountId,
  timezone: s.timezone,
  maxPostsPerDay: s.maxPostsPerDay,
  paused: s.paused,
  postingSlots: s.postingSlots.map((p) => ({ id: p.id, dayOfWeek: p.dayOfWeek, timeOfDay: p.timeOfDay, enabled: p.enabled, source: p.source })),
});

const preferencesMessage = (p: Preferences): PreferencesMessage => ({
  tone: p.tone,
  includeEmoji: p.includeEmoji,
  structure: p.structure,
  customRules: p.customRules,
  timezone: p.timezone,
  usePostMetricsForAi: p.usePostMetricsForAi,
  theme: p.theme,
  aiModel: p.aiModel,
  emailNotifications: { ...p.emailNotifications },
  updatedAt: p.updatedAt.toISOString(),
  linkShorteningEnabled: p.linkShorteningEnabled,
  dubApiKeySet: p.dubApiKeySet,
});

const customRuleMessage = (r: CustomRule): CustomRuleMessage => ({
  id: r.id,
  title: r.title,
  content: r.content,
  active: r.active,
  scope: r.scope,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const principalMessage = (p: Principal): PrincipalMessage => ({
  kind: p.kind === 'api_key' ? CredentialKind.CREDENTIAL_KIND_API_KEY : CredentialKind.CREDENTIAL_KIND_SITE_TOKEN,
  workspaceId: p.workspaceId,
  userId: p.userId,
  keyId: p.keyId,
  siteId: p.siteId,
  scopes: p.scopes,
  tier: p.tier,
  subscriptionStatus: p.subscriptionStatus,
});

/** gRPC transport of the accounts service: proto messages in, domain calls, proto messages out. */
export function accountsService(deps: ConnectDeps, hooks: { apiKeyUsed?: (keyId: number) => void } = {}): ServiceBinding {
  return bindService('accounts.v1.AccountsService', AccountsServiceService, {
    ...connectHandlers(deps),
    authenticate: async (req) => {
      const p = await authenticate(deps, req.token);
      if (p.kind === 'api_key') hooks.apiKeyUsed?.(p.keyId);
      return { principal: principalMessage(p) };
    },
    createWorkspace: (req) => createWorkspace(deps, { name: req.name, tier: req.tier, subscriptionStatus: req.subscriptionStatus }),
    getWorkspace: async (req) => ({ workspace: workspaceMessage(await getWorkspace(deps, req.workspaceId)) }),
    setReviewRequired: async (req) => ({ workspace: workspaceMessage(await setReviewRequired(deps, req.workspaceId, req.required)) }),
    setSubscription: async (req) => ({
      workspace: workspaceMessage(
        await setSubscription(deps, {
          workspaceId: req.workspaceId,
          tier: req.tier,
          status: req.status,
          currentPeriodEnd: req.currentPeriodEnd,
          cancelAtPeriodEnd: req.cancelAtPeriodEnd,
        }),
      ),
    }),
    createUser: async (req) => ({ userId: await createUser(deps, req.email) }),
    addMember: async (req) => {
      await addMember(deps, req.workspaceId, req.userId);
      return {};
    },
    removeMember: async (req) => {
      await removeMember(deps, req.workspaceId, req.userId);
      return {};
    },
    createApiKey: (req) => createApiKey(deps, { workspaceId: req.workspaceId, userId: req.userId, scopes: req.scopes }),
    revokeApiKey: async (req) => ({ keyId: await revokeApiKey(deps, req.workspaceId) }),
    createSite: (req) => createSite(deps, { workspaceId: req.workspaceId, name: req.name, url: req.url, cms: req.cms }),
    getSiteStatus: async (req) => {
      const site = await getSite(deps, req.workspaceId, req.siteId);
      return {
        connection: {
          name: site.name,
          siteUrl: site.url,
          cms: site.cms,
          lastPushAt: site.lastPushAt?.toISOString(),
          unmatchedPushes: site.unmatchedPushes,
        },
      };
    },
    connectSocialAccount: async (req) => ({
      socialAccountId: await connectSocialAccount(deps, {
        workspaceId: req.workspaceId,
        platform: req.platform,
        username: req.username,
        sandbox: req.sandbox,
      }),
    }),
    getPublishingCredentials: async (req) => ({
      accounts: (await publishingCredentials(deps, req.workspaceId, req.socialAccountIds)).map(({ account, credentials }) => ({
        socialAccountId: account.id,
        platform: account.platform,
        username: account.username,
        sandbox: account.sandbox,
        credentials,
      })),
    }),
    markDisconnected: async (req) => {
      const reason = req.reason === undefined ? undefined : disconnectReasonCodec.fromProto(req.reason);
      await markDisconnected(deps, req.workspaceId, req.socialAccountId, reason === 'expired' ? 'expired' : 'revoked');
      return {};
    },
    recordPublishError: async (req) => {
      const errorClass = publishErrorClassCodec.fromProto(req.errorClass);
      if (!errorClass) throw invalidParameters(['error_class must be set']);
      await recordPublishError(deps, req.workspaceId, req.socialAccountId, errorClass, req.occurredAt ? new Date(req.occurredAt) : deps.clock.now());
      return {};
    },
    listPostingSchedules: async (req) => ({ postingSchedules: (await listPostingSchedules(deps, req.workspaceId)).map(scheduleMessage) }),
    getPostingSchedule: async (req) => ({ postingSchedule: scheduleMessage(await getPostingSchedule(deps, req.workspaceId, req.socialAccountId)) }),
    updatePostingSchedule: async (req) => ({
      postingSchedule: scheduleMessage(
        await updatePostingSchedule(deps, req.workspaceId, req.scheduleId, {
          timezone: req.timezone,
          maxPostsPerDay: req.maxPostsPerDay,
          paused: req.paused,
          postingSlots: req.hasPostingSlots ? req.postingSlots.map((s) => ({ dayOfWeek: s.dayOfWeek, timeOfDay: s.timeOfDay, enabled: s.enabled })) : undefined,
        }),
      ),
    }),
    listSocialAccounts: async (req) => ({
      socialAccounts: (await listSocialAccounts(deps, req.workspaceId, req.ids)).map((a) => socialAccountMessage(deps, a)),
    }),
    getSubscription: async (req) => {
      const { subscription: s, timezone } = await getSubscription(deps, req.workspaceId);
      return {
        subscription: {
          id: s.id,
          tier: s.tier,
          status: s.status,
          currentPeriodEnd: s.currentPeriodEnd.toISOString(),
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
          maxScheduleDays: s.maxScheduleDays,
        },
        timezone,
      };
    },
    getPreferences: async (req) => ({ preferences: preferencesMessage(await getPreferences(deps, req.workspaceId)) }),
    updatePreferences: async ({ workspaceId, emailNotifications, validateOnly, ...fields }) => ({
      preferences: preferencesMessage(await updatePreferences(deps, workspaceId, { ...fields, emailNotifications }, { validateOnly })),
    }),
    getLinkShortening: async (req) => {
      const l = await getLinkShortening(deps, req.workspaceId);
      return { enabled: l.enabled, dubApiKey: l.apiKey, keySource: l.keySource };
    },
    listCustomRules: async (req) => ({ customRules: (await listCustomRules(deps, req.workspaceId, req.activeOnly)).map(customRuleMessage) }),
    getCustomRule: async (req) => ({ customRule: customRuleMessage(await getCustomRule(deps, req.workspaceId, req.id)) }),
    createCustomRule: async ({ workspaceId, ...input }) => ({ customRule: customRuleMessage(await createCustomRule(deps, workspaceId, input)) }),
    updateCustomRule: async ({ workspaceId, id, ...input }) => ({ customRule: customRuleMessage(await updateCustomRule(deps, workspaceId, id, input)) }),
    deleteCustomRule: async (req) => ({ customRule: customRuleMessage(await deleteCustomRule(deps, req.workspaceId, req.id)) }),
    toggleCustomRule: async (req) => ({ customRule: customRuleMessage(await toggleCustomRule(deps, req.workspaceId, req.id)) }),
  });
}
