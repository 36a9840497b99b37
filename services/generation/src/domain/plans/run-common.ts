import { AppError } from '@spa/errors';
import type { Channel, ContentPlan } from './model.js';

/** Errors that end an attempt without deciding the item: the run is resumed by a later attempt. */
const TRANSIENT = new Set(['SERVICE_UNAVAILABLE', 'INTERNAL_ERROR']);

/** Whether `err` decides an item (a refusal recorded as the item's failure) rather than ending the attempt. */
export const decidesItem = (err: unknown): err is AppError => err instanceof AppError && !TRANSIENT.has(err.code);

export class RunOwnershipLost extends Error {
  constructor(runId: string) {
    super(`run ${runId} was taken over by another attempt`);
  }
}

/** What a channel writes about: its quote_topic, else the plan's content strategy, else the plan name. */
export const topicOf = (plan: Pick<ContentPlan, 'name' | 'contentStrategy'>, channel?: Channel): string => channel?.quoteTopic?.trim() || plan.contentStrategy?.trim() || plan.name;
