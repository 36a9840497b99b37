import type { JsonSchema } from './json-schema.js';

const ERROR = { $ref: '#/components/schemas/Error' };
const errorJson = (code: string, message: string) => ({ 'application/json': { schema: ERROR, example: { error: { message, code } } } });

const r2Key = {
  name: 'r2_key',
  in: 'path',
  required: true,
  description: 'The storage key, URL-encoded (slashes as %2F or literal)',
  schema: { type: 'string', minLength: 1 },
  example: 'ws/1/2026/03/3f1c9a52-8a0e-4c57-9d6b-2a4f1e0c7b11.png',
};

const presignQuery = (name: string, description: string, schema: JsonSchema, example: unknown) => ({ name, in: 'query', required: true, description, schema, example });

/**
 * `/media/{r2_key}`, served by the gateway outside /api/v1 without an API key: the public read of a stored
 * file, and the target of the presigned PUT answered by GET /facebook/uploads/presign (local storage).
 */
export function mediaRelayPath(): Record<string, unknown> {
  const read = (head: boolean) => ({
    operationId: head ? 'headMedia' : 'getMedia',
    summary: head ? 'Size and type of a stored media file' : 'Read a stored media file',
    description: 'Public by its unguessable key (platforms that pull media fetch it here). Never changes: cached for a year. Streamed, never buffered.',
    tags: ['Media'],
    security: [],
    parameters: [r2Key],
    responses: {
      '200': {
        description: 'The file',
        headers: { 'Content-Length': { schema: { type: 'integer' }, description: 'Size in bytes' } },
        ...(head ? {} : { content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' }, example: '<bytes>' } } }),
      },
      '404': { description: 'NOT_FOUND: no media file under this key', ...(head ? {} : { content: errorJson('NOT_FOUND', 'No media file under this key') }) },
      '503': {
        description: 'SERVICE_UNAVAILABLE: the media service is unavailable; retry shortly',
        ...(head ? {} : { content: errorJson('SERVICE_UNAVAILABLE', 'The media service is unavailable; retry shortly') }),
      },
    },
  });
  return {
    servers: [{ url: '/', description: 'The gateway root (outside /api/v1)' }],
    get: read(false),
    head: read(true),
    put: {
      operationId: 'putPresignedMedia',
      summary: 'Upload the bytes of a presigned upload',
      description:
        'The URL comes whole from GET /facebook/uploads/presign: send it unchanged, once, before it expires, with exactly the bound ' +
        '`Content-Type` and `Content-Length`. The bytes are streamed to storage and checked (type read from the bytes, size). With S3 storage the URL points at the bucket instead.',
      tags: ['Media'],
      security: [],
      parameters: [
        r2Key,
        presignQuery('X-Spa-Expires', 'Unix seconds after which the URL is refused', { type: 'integer' }, 1772447400),
        presignQuery('X-Spa-Size', 'The bound Content-Length', { type: 'integer', minimum: 1 }, 1048576),
        presignQuery('X-Spa-Content-Type', 'The bound Content-Type', { type: 'string' }, 'video/mp4'),
        presignQuery('X-Spa-Signature', 'HMAC of key, size, type and expiry', { type: 'string' }, '9c2f0e4b7d1a…'),
      ],
      requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' }, example: '<bytes>' } } },
      responses: {
        '200': {
          description: 'Stored',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['r2_key', 'size_bytes', 'content_type'],
                properties: { r2_key: { type: 'string' }, size_bytes: { type: 'integer' }, content_type: { type: 'string' } },
              },
              example: { r2_key: r2Key.example, size_bytes: 1048576, content_type: 'video/mp4' },
            },
          },
        },
        '400': { description: 'UPLOAD_REFUSED: malformed presign parameters', content: errorJson('UPLOAD_REFUSED', 'Upload refused: malformed URL') },
        '403': { description: 'UPLOAD_REFUSED: signature, type, size or expiry mismatch, or a second upload', content: errorJson('UPLOAD_REFUSED', 'Upload refused: expired') },
        '404': { description: 'NOT_FOUND: presigned uploads go straight to the object store on this deployment', content: errorJson('NOT_FOUND', 'Presigned uploads go straight to the object store') },
        '503': { description: 'SERVICE_UNAVAILABLE: the media service is unavailable', content: errorJson('SERVICE_UNAVAILABLE', 'The media service is unavailable; retry shortly') },
      },
    },
  };
}
