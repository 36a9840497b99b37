import { describe, expect, it } from 'vitest';
import { platformReason } from './platform-error';

describe("a platform's refusal in words", () => {
  it("takes the platform's own message out of its JSON, with the status it came with", () => {
    const x = platformReason('POST /2/tweets answered 403: {"detail":"You are not allowed to create a Tweet with duplicate content.","type":"about:blank","title":"Forbidden","status":403}', 'X');
    expect(x).toEqual({
      text: 'X refused the post (403): You are not allowed to create a Tweet with duplicate content.',
      raw: 'POST /2/tweets answered 403: {"detail":"You are not allowed to create a Tweet with duplicate content.","type":"about:blank","title":"Forbidden","status":403}',
    });
    // A message beats a bare code.
    expect(platformReason('POST /xrpc/com.atproto.repo.createRecord answered 401: {"error":"ExpiredToken","message":"Token has expired"}', 'Bluesky').text).toBe(
      'Bluesky no longer accepts this connection (401): Token has expired',
    );
    // Nested error objects (Facebook, Instagram, Threads) and error arrays.
    expect(platformReason('POST /v21.0/123/feed answered 400: {"error":{"message":"(#200) The user has not authorized the application","type":"OAuthException","code":200}}', 'Facebook').text).toBe(
      'Facebook refused the post (400): (#200) The user has not authorized the application',
    );
    expect(platformReason('POST /v1/statuses answered 422: {"errors":[{"code":"x","message":"Text is too long"}]}').text).toBe('The platform refused the post (422): Text is too long');
  });

  it('keeps a body that is not JSON, says a platform outage as such, and keeps what came before the call', () => {
    expect(platformReason('POST /api/v1/statuses answered 413: Request Entity Too Large', 'Mastodon').text).toBe('Mastodon found the media too large (413): Request Entity Too Large');
    expect(platformReason('gave up after 3 attempts: POST /v2/posts answered 503: {}', 'LinkedIn').text).toBe('Gave up after 3 attempts: LinkedIn had an error of its own (503).');
  });

  it('leaves an error that is already words as it is, with nothing folded away', () => {
    expect(platformReason('the social account no longer exists')).toEqual({ text: 'the social account no longer exists', raw: undefined });
  });
});
