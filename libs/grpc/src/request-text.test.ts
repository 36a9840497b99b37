import { CreatePostRequest, PostsServiceClient, PostsServiceService } from '@spa/contracts/posts/v1/posts';
import { createLogger } from '@spa/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindService, createClient, startGrpcServer, type RunningGrpcServer } from './index.js';
import { controlCharacterProblems, snakeCase, withoutControlCharacters } from './request-text.js';

describe('control characters in request text', () => {
  it('names every field holding one, at any depth, in arrays and object keys', () => {
    const body = { post: { body: 'a\u0000b', post_contents: [{ body: 'fine' }, { body: '\u001b[1m', first_comment: '\u0007' }], tags: ['ok', 'x\u0008'] }, ['k\u0001']: 1 };
    expect(controlCharacterProblems(body)).toEqual([
      'post.body: contains the control character U+0000; only tab, line feed and carriage return are allowed',
      'post.post_contents[1].body: contains the control character U+001B; only tab, line feed and carriage return are allowed',
      'post.post_contents[1].first_comment: contains the control character U+0007; only tab, line feed and carriage return are allowed',
      'post.tags[1]: contains the control character U+0008; only tab, line feed and carriage return are allowed',
      'value: a field name contains the control character U+0001',
    ]);
  });

  it('takes tab, line feed, carriage return, DEL, other scripts and emoji; leaves bytes alone', () => {
    expect(controlCharacterProblems({ a: 'one\ttwo\r\nthree\n', b: 'del\u007f', c: 'été 😀 日本', d: Buffer.from([0, 1, 2]), e: new Uint8Array([0]), f: 12, g: null })).toEqual([]);
  });

  it('walks a deeply nested value without overflowing the stack, and stops after 20 problems', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(controlCharacterProblems(deep)).toHaveLength(1);
    expect(controlCharacterProblems(Array.from({ length: 1000 }, () => '\u0000'))).toHaveLength(20);
  });

  it('names proto fields the way the contract does (snake_case)', () => {
    expect(controlCharacterProblems({ postContents: [{ firstComment: '\u0002' }] }, snakeCase)).toEqual([
      'post_contents[0].first_comment: contains the control character U+0002; only tab, line feed and carriage return are allowed',
    ]);
  });

  it("makes a third party's text fit to pass on", () => {
    expect(withoutControlCharacters('bad\u0000 gateway\u001b\ttab\nline')).toBe('bad\uFFFD gateway\uFFFD\ttab\nline');
  });
});

describe('every gRPC server refuses them before a handler runs', () => {
  const logger = createLogger('grpc-test', 'silent');
  let server: RunningGrpcServer;
  const seen: string[] = [];

  beforeAll(async () => {
    // A real server on a free port with a handler written for this test.
    const handlers = {
      createPost: async (req: CreatePostRequest) => {
        seen.push(req.body);
        return {};
      },
    };
    server = await startGrpcServer({ host: '127.0.0.1', port: 0, logger, services: [bindService('posts.v1.PostsService', PostsServiceService, handlers as never)] });
  });
  afterAll(async () => {
    await server?.shutdown();
  });

  it('answers INVALID_PARAMETERS naming the field, and the handler never sees the request', async () => {
    const client = createClient(PostsServiceClient, `127.0.0.1:${server.port}`);
    try {
      await expect(client.createPost(CreatePostRequest.fromPartial({ workspaceId: 1, postContents: [{ platform: 'x', body: 'a\u0000' }] }))).rejects.toMatchObject({
        code: 'INVALID_PARAMETERS',
        details: ['post_contents[0].body: contains the control character U+0000; only tab, line feed and carriage return are allowed'],
      });
      expect(seen).toEqual([]);
      await client.createPost(CreatePostRequest.fromPartial({ workspaceId: 1, body: 'line\nnext\ttab' }));
      expect(seen).toEqual(['line\nnext\ttab']);
    } finally {
      client.close();
    }
  });
});
