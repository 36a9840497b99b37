import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MediaItem } from './types.js';

/**
 * Test support for connectors whose platform pulls media from a public URL (Instagram, Facebook, Pinterest,
 * TikTok): a loopback HTTP server that serves real media bytes by name, as our media URLs do, so the strict
 * stand-in fetches and inspects what a real platform would. Not used by the service itself.
 */
export interface MediaHost {
  /** The public URL of a hosted file. */
  url(name: string): string;
  /** A MediaItem for a hosted file (its URL, and its bytes for platforms that take uploads). */
  item(name: string, type: MediaItem['type'], contentType?: string): MediaItem;
  close(): Promise<void>;
}

export async function hostMedia(files: Readonly<Record<string, Buffer>>): Promise<MediaHost> {
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
    const bytes = files[name];
    if (!bytes) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = (name: string) => `${base}/${encodeURIComponent(name)}`;
  return {
    url,
    item: (name, type, contentType = 'application/octet-stream') => ({
      r2Key: `ws/1/${name}`,
      type,
      url: url(name),
      read: async () => {
        const bytes = files[name];
        if (!bytes) throw new Error(`no hosted file ${name}`);
        return { bytes, contentType };
      },
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
