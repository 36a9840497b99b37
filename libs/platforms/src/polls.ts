/**
 * How long a poll may run, in minutes, whichever platform publishes it: from X's shortest (5 minutes) to
 * LinkedIn's longest (14 days). A platform with a shorter maximum (X: 7 days) refuses longer polls itself.
 */
export const POLL_MINUTES = { min: 5, max: 20_160 } as const;
