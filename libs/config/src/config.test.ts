import { describe, expect, it } from 'vitest';
import { ConfigError, env, loadConfig, z } from './index.js';

const schema = z.object({ MONGO_URL: env.mongoUrl, GRPC_PORT: env.port(50051), FLAG: env.bool(false), KEY: env.secret });

describe('loadConfig', () => {
  it('applies defaults and coerces values', () => {
    expect(loadConfig(schema, { KEY: 'a'.repeat(16), FLAG: 'true', GRPC_PORT: '0' })).toEqual({
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      GRPC_PORT: 0,
      FLAG: true,
      KEY: 'a'.repeat(16),
    });
  });

  it('fails fast naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig(schema, { MONGO_URL: 'http://x', GRPC_PORT: '70000' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['MONGO_URL', 'GRPC_PORT', 'KEY']) expect(message).toContain(name);
  });
});
