import { DAILY_GENERATIONS, TIERS, type Tier } from '@spa/vocabulary';

export type DailyLimits = Readonly<Record<Tier, number>>;

/**
 * The daily AI generation limits per plan: the plans of docs/architecture.md (`DAILY_GENERATIONS`), with an operator override
 * `tier:limit[,tier:limit…]` (e.g. `starter:3,pro:5`) for the tiers it names. Throws naming a bad entry.
 */
export function parseDailyLimits(override: string): DailyLimits {
  const limits: Record<Tier, number> = { ...DAILY_GENERATIONS };
  for (const entry of override
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [tier, value, ...rest] = entry.split(':').map((p) => p.trim());
    if (!TIERS.includes(tier as Tier)) throw new Error(`"${entry}": the tier must be one of ${TIERS.join(', ')}`);
    const limit = Number(value);
    if (rest.length > 0 || value === '' || !Number.isInteger(limit) || limit < 0 || limit > 1_000_000) {
      throw new Error(`"${entry}": the limit must be an integer from 0 to 1000000`);
    }
    limits[tier as Tier] = limit;
  }
  return limits;
}
