/**
 * Object keys: `ws/<workspace_id>/<yyyy>/<mm>/<uuid>.<ext>`. The service generates every key; the
 * workspace prefix is how storage, serving and deletion tell whose a key is.
 */
export function newMediaKey(workspaceId: number, now: Date, id: string, ext: string): string {
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `ws/${workspaceId}/${yyyy}/${mm}/${id}.${ext}`;
}

const KEY = /^ws\/(\d{1,16})\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

/** Whether a string has the shape of a key this service generates. */
export const isMediaKey = (key: string): boolean => KEY.test(key);

/** The workspace a key belongs to, or undefined for a string that is not a key. */
export function workspaceOfKey(key: string): number | undefined {
  const m = KEY.exec(key);
  return m ? Number(m[1]) : undefined;
}

const VARIANT = /^(ws\/\d{1,16}\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8})\.variants\/[0-9a-f]{16}\.[a-z0-9]{1,8}$/;

/** The key of a stored file's variant for one preset: beside the original, `<key>.variants/<preset id>.<ext>`. */
export const variantKey = (sourceKey: string, presetId: string, ext: string): string => `${sourceKey}.variants/${presetId}.${ext}`;

/** Whether a string has the shape of a variant's key. */
export const isVariantKey = (key: string): boolean => VARIANT.test(key);
