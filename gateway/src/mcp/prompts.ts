import { PLATFORMS } from '@spa/vocabulary';

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface PromptMessage {
  role: 'user';
  content: { type: 'text'; text: string };
}

interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  render(args: Record<string, string>): string;
}

const PROMPTS: Prompt[] = [
  {
    name: 'week_of_posts',
    title: 'A week of posts for a platform',
    description: 'Plans, writes and schedules seven posts for one connected account of a platform, in the workspace’s voice.',
    arguments: [
      { name: 'platform', description: `The platform (${PLATFORMS.join(', ')})`, required: true },
      { name: 'topic', description: 'What the week is about (optional; otherwise the workspace’s usual subjects)', required: false },
    ],
    render: ({ platform, topic }) =>
      [
        `Write and schedule a week of posts (seven, one a day) for our ${platform} account${topic ? ` about: ${topic}` : ''}.`,
        '',
        'Steps:',
        `1. Read the resources spa://voice-profile and spa://preferences, and the ${platform} entry of spa://platforms (text limit, media, options).`,
        `2. Call list_social_accounts and pick the connected ${platform} account (if there are several, ask me which one; if there is none, stop and tell me).`,
        '3. Draft seven posts in the workspace’s voice, each within the platform’s limits. generate_post may write a draft for you.',
        '4. For each post, call get_next_slot with the account to find its slot, then create_post with scheduled_at set to that slot and post_accounts naming the account. Validate first with create_post and dry_run: true if unsure.',
        '5. Show me the seven posts with their times and ids. Do not publish anything now.',
      ].join('\n'),
  },
  {
    name: 'article_to_posts',
    title: 'An article into posts for every connected account',
    description: 'Turns an article (its text or its URL) into one post per connected account, each fitted to its platform, saved as drafts.',
    arguments: [
      { name: 'article', description: 'The article’s text, or its URL', required: true },
      { name: 'schedule', description: '"drafts" (default) or "next_slot" to schedule each post into its account’s next free slot', required: false },
    ],
    render: ({ article, schedule }) =>
      [
        'Turn this article into posts for every connected account:',
        '',
        article,
        '',
        'Steps:',
        '1. Read spa://voice-profile, spa://preferences and spa://platforms.',
        '2. Call list_social_accounts; for each connected (not disconnected) account write one post fitted to its platform: its text limit, its tone, a thread where the platform suits one.',
        '3. Save each with create_post as a draft with post_accounts naming its account (dry_run: true first to check it against the platform).',
        schedule === 'next_slot'
          ? '4. Then schedule each into its account’s next free slot with publish_post and to_next_slot: true.'
          : '4. Leave them as drafts; list them with their ids so I can review them.',
      ].join('\n'),
  },
];

export const promptList = () => ({ prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) });

/** The prompt's messages, or a refusal naming what is missing. */
export function getPrompt(name: string, args: Record<string, string>): { description: string; messages: PromptMessage[] } | { error: string } {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) return { error: `No such prompt: ${name}; the prompts are ${PROMPTS.map((p) => p.name).join(', ')}` };
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length) return { error: `Missing prompt arguments: ${missing.join(', ')}` };
  if (name === 'week_of_posts' && !(PLATFORMS as readonly string[]).includes(args.platform ?? '')) {
    return { error: `platform must be one of ${PLATFORMS.join(', ')}` };
  }
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.render(args) } }] };
}
