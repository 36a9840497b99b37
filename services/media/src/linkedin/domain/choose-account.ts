import { AppError } from '@spa/errors';
import type { AccountRef } from './model.js';
import type { AccountsPort } from './ports.js';

const invalid = (message: string, detail: string) => new AppError('INVALID_PARAMETERS', message, { details: [`social_account_id: ${detail}`] });

/**
 * The LinkedIn account an upload is for: the given one (404 when the workspace has no such account,
 * 422 when it is not a connected LinkedIn account), else the workspace's only connected LinkedIn
 * account (422 when there is none, or several: then social_account_id is required).
 */
export async function chooseLinkedInAccount(accounts: AccountsPort, workspaceId: number, requested: number | undefined): Promise<AccountRef> {
  if (requested !== undefined) {
    const [account] = await accounts.list(workspaceId, [requested]);
    if (!account) throw new AppError('NOT_FOUND', `Social account ${requested} not found`);
    if (account.platform !== 'linkedin') throw invalid('social_account_id is not a LinkedIn account', `account ${requested} is a ${account.platform} account, not LinkedIn`);
    if (account.disconnected) throw invalid('social_account_id is disconnected', `account ${requested} is disconnected; reconnect it first`);
    return account;
  }
  const linkedIn = (await accounts.list(workspaceId)).filter((a) => a.platform === 'linkedin' && !a.disconnected);
  if (linkedIn.length === 1) return linkedIn[0]!;
  if (!linkedIn.length) throw invalid('No LinkedIn account is connected', 'no LinkedIn account is connected to this workspace');
  throw invalid('social_account_id is required when several LinkedIn accounts are connected', `required: ${linkedIn.length} LinkedIn accounts are connected (${linkedIn.map((a) => a.id).join(', ')})`);
}
