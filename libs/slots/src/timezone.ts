import { IANAZone } from 'luxon';

/**
 * "Area/Location" (any depth, e.g. "America/Argentina/Buenos_Aires", "Etc/GMT+5"), or exactly "UTC".
 * This shape check runs before asking luxon, because luxon (through Intl) also accepts:
 * - UTC offsets such as "+02:00": not zone names, and they carry no DST rules;
 * - legacy single-word names such as "EST", "MST", "HST", "EST5EDT", "CET", "GMT", "Japan". Some of these are
 *   in the IANA database, but "EST" is a fixed UTC-5 zone (now a link to America/Panama) that users often
 *   mistake for US Eastern time with DST. Rejecting every name without a "/" (apart from "UTC") closes that trap.
 */
const ZONE_NAME = /^(?:UTC|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+)$/;

/**
 * True when `zone` names an IANA time zone that luxon can use, in "Area/Location" form, or is "UTC".
 * Backward-compatible links such as "US/Eastern" or "Asia/Calcutta" are accepted because they are IANA names.
 * Case follows ICU, which matches names case-insensitively: "america/new_york" is accepted and is New York.
 */
export function isValidTimezone(zone: string): boolean {
  return typeof zone === 'string' && ZONE_NAME.test(zone) && IANAZone.isValidZone(zone);
}
