import { failureOf, type Reader } from './context.js';

/** What an agent reads as context: each is the JSON of a REST read, under the same scope. */
export const RESOURCES = [
  {
    uri: 'spa://platforms',
    name: 'platforms',
    title: 'Platform capability table',
    description: 'Every platform: text limits, media types and sizes, content types and the options a post may set (GET /platforms; scope posts:read).',
    path: '/platforms',
  },
  {
    uri: 'spa://voice-profile',
    name: 'voice-profile',
    title: "The workspace's voice profile",
    description: 'How the workspace writes, learned from its posts: what generation follows (GET /voice_profile; scope voice:read).',
    path: '/voice_profile',
  },
  {
    uri: 'spa://preferences',
    name: 'preferences',
    title: 'Generation preferences',
    description: 'Tone, emoji, hashtags, links and the other choices generation follows (GET /preferences; scope preferences:read).',
    path: '/preferences',
  },
] as const;

export const resourceList = () => ({
  resources: RESOURCES.map(({ uri, name, title, description }) => ({ uri, name, title, description, mimeType: 'application/json' })),
});

/** The resource's JSON; a refused read (a scope the key lacks, say) is an error naming the REST error. */
export async function readResource(reader: Reader, uri: string): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> } | { error: string }> {
  const resource = RESOURCES.find((r) => r.uri === uri);
  if (!resource) return { error: `No such resource: ${uri}; the resources are ${RESOURCES.map((r) => r.uri).join(', ')}` };
  const answer = await reader.get(resource.path);
  const failure = failureOf(answer);
  if (failure) return { error: failure };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(answer.body) }] };
}
