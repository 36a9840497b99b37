/** One weekly slot of a posting schedule, as stored and served by the accounts service. */
export interface PostingSlot {
  /** Not used by the computations; present on stored slots. */
  id?: number | string;
  /** 0 = Sunday … 6 = Saturday, in the schedule's time zone. */
  day_of_week: number;
  /** "HH:MM", 24-hour, local wall-clock time in the schedule's time zone. */
  time_of_day: string;
  enabled: boolean;
  /** Not used by the computations ("default" or "manual"). */
  source?: string;
}

/** The posting schedule of one social account. */
export interface PostingSchedule {
  /** IANA time zone name, e.g. "Europe/Berlin" or "UTC". */
  timezone: string;
  /** At least 1; counted per local calendar day in `timezone`. */
  max_posts_per_day: number;
  /** A paused schedule has no next slot. */
  paused: boolean;
  posting_slots: readonly PostingSlot[];
}

export interface TimeOfDay {
  hour: number;
  minute: number;
}
