import { env, loadConfig, z } from '@spa/config';

/** Settings of the LinkedIn asset uploads (merged into the media service's config by the lead). */
export const linkedInConfigSchema = z.object({
  ACCOUNTS_ADDR: env.address('127.0.0.1:50051'),
  /** The publisher holds the LinkedIn connector and the accounts' credentials. */
  PUBLISHER_ADDR: env.address('127.0.0.1:50053'),
  /** Deadline of one upload through the publisher (a video goes to LinkedIn in 4 MiB parts). */
  LINKEDIN_UPLOAD_DEADLINE_MS: env.millis(120_000),
});

export type LinkedInConfig = z.infer<typeof linkedInConfigSchema>;
export const loadLinkedInConfig = (environment: NodeJS.ProcessEnv = process.env): LinkedInConfig => loadConfig(linkedInConfigSchema, environment);
