/**
 * The ids of a sandbox account's Pinterest boards: digits, as Pinterest's are, derived from the account's
 * name so that the platform stand-in (which lists them) and the accounts service (which stores the first
 * as a sandbox account's default board) agree without talking. `n` counts from 1.
 */
export function sandboxBoardId(account: string, n: number): string {
  let hash = 0x811c9dc5;
  for (const char of account) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return `${hash}${String(n).padStart(3, '0')}`;
}
