import { ConnectorError, type TargetAccount } from './types.js';

/**
 * What every call to LinkedIn's versioned API (`/rest`, Rest.li 2.0, OAuth 2.0 member token) shares:
 * the version and protocol headers, and the author URN of the account (`credentials.author_urn`:
 * `urn:li:person:…` with w_member_social, or `urn:li:organization:…` with w_organization_social).
 */
export const LINKEDIN_VERSION = '202608';

export function linkedinHeaders(target: TargetAccount, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${target.credentials.access_token}`,
    'linkedin-version': LINKEDIN_VERSION,
    'x-restli-protocol-version': '2.0.0',
    ...extra,
  };
}

/** The account's author URN: the author of its posts and the owner of its uploads. */
export function linkedinAuthor(target: TargetAccount): string {
  const urn = target.credentials.author_urn;
  if (!urn || !/^urn:li:(person|organization):./.test(urn)) {
    throw new ConnectorError('auth', 'linkedin: credentials.author_urn must be urn:li:person:… or urn:li:organization:… (reconnect the account)');
  }
  return urn;
}
