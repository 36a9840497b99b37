import net from 'node:net';

/**
 * Counts the Redis keys matching `pattern` with one EVAL over a raw RESP connection (the bench needs
 * no Redis client library for this single check).
 */
export function countRedisKeys(redisUrl: string, pattern: string): Promise<number> {
  const url = new URL(redisUrl);
  const command = resp(['EVAL', "return #redis.call('KEYS', ARGV[1])", '0', pattern]);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 6379) });
    let reply = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('redis did not answer within 10 s')));
    socket.once('connect', () => socket.write(command));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      if (!reply.endsWith('\r\n')) return;
      socket.end();
      const integer = /^:(\d+)\r\n$/.exec(reply);
      if (integer?.[1]) resolve(Number(integer[1]));
      else reject(new Error(`unexpected redis reply: ${reply.trim()}`));
    });
    socket.once('error', reject);
  });
}

function resp(args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}
