import type { SandboxRequest } from '../router.js';
import { inspectMedia, type InspectedMedia } from './inspect.js';

/** The request's multipart form (`multipart/form-data`), or undefined when it is not one. */
export async function readForm(req: SandboxRequest): Promise<FormData | undefined> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) return undefined;
  return new Request('http://sandbox/', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(req.raw) }).formData().catch(() => undefined);
}

/** A form field's file as bytes, or undefined when the field is missing or not a file. */
export async function formFile(form: FormData | undefined, name: string): Promise<Buffer | undefined> {
  const file = form?.get(name);
  return file && typeof file !== 'string' ? Buffer.from(await file.arrayBuffer()) : undefined;
}

/**
 * Fetches media a platform pulls from a public URL (Instagram's `image_url`, Pinterest's `url`...) and reads
 * it as the platform would. Answers a reason instead when the URL cannot be fetched.
 */
export async function fetchMedia(url: string): Promise<{ media: InspectedMedia } | { error: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    return { error: `the media URL could not be fetched (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!response.ok) return { error: `the media URL answered HTTP ${response.status}` };
  return { media: await inspectMedia(Buffer.from(await response.arrayBuffer())) };
}
