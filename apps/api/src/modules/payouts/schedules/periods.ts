import type { PayoutScheduleBody } from "@salelink/contracts";

/*
 * When a schedule is due, and the name of the period it pays (pure; UTC throughout). A payout per
 * account, currency and period: the period's name is the unique key that makes a run happen once.
 *   weekly  "weekly:2026-W48"   due from the chosen ISO weekday to the end of the ISO week
 *   monthly "monthly:2026-11"   due from the chosen day to the end of the month
 *   threshold "threshold:<the run's instant>"   due whenever the balance reaches the threshold
 * A weekly or monthly run missed on its day (every instance down) catches up later in its period,
 * but a schedule chosen after its day in this period waits for the next one.
 */

const DAY_MS = 86_400_000;

export interface ScheduleTiming {
  kind: "weekly" | "monthly" | "threshold";
  weekday: number | null;
  dayOfMonth: number | null;
  updatedAt: Date;
}

const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
/** ISO weekday, 1 (Monday) to 7 (Sunday). */
const isoWeekday = (d: Date) => ((d.getUTCDay() + 6) % 7) + 1;

/** "2026-W48": the ISO week-numbering year and week of the day. */
export function isoWeek(d: Date): string {
  const day = startOfDay(d);
  // The week's Thursday decides its year.
  const thursday = new Date(day.getTime() + (4 - isoWeekday(day)) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The day this period's run is due (00:00 UTC), for weekly and monthly schedules. */
function dueDay(schedule: ScheduleTiming, now: Date): Date | null {
  const today = startOfDay(now);
  if (schedule.kind === "weekly" && schedule.weekday !== null)
    return new Date(today.getTime() + (schedule.weekday - isoWeekday(today)) * DAY_MS);
  if (schedule.kind === "monthly" && schedule.dayOfMonth !== null)
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), schedule.dayOfMonth));
  return null;
}

/** The period a run at `now` pays, or null when the schedule is not due. */
export function duePeriod(schedule: ScheduleTiming, now: Date): string | null {
  if (schedule.kind === "threshold") return `threshold:${now.toISOString()}`;
  const due = dueDay(schedule, now);
  if (!due || now < due) return null;
  // Chosen after its day had passed in this period: from the next period on.
  if (schedule.updatedAt.getTime() >= due.getTime() + DAY_MS) return null;
  return schedule.kind === "weekly" ? `weekly:${isoWeek(now)}` : `monthly:${now.toISOString().slice(0, 7)}`;
}

/** The next run instant of the job chain strictly after `now`: the next multiple of the interval. */
export function nextTickAt(intervalMinutes: number, now: Date): Date {
  const ms = intervalMinutes * 60_000;
  return new Date((Math.floor(now.getTime() / ms) + 1) * ms);
}

/** When the schedule next looks at the balances (shown to the creator). */
export function nextRunAt(
  schedule: PayoutScheduleBody,
  intervalMinutes: number,
  now: Date,
  updatedAt = now,
): Date | null {
  if (schedule.kind === "manual") return null;
  const tick = nextTickAt(intervalMinutes, now);
  if (schedule.kind === "threshold") return tick;
  const timing: ScheduleTiming = {
    kind: schedule.kind,
    weekday: schedule.kind === "weekly" ? schedule.weekday : null,
    dayOfMonth: schedule.kind === "monthly" ? schedule.dayOfMonth : null,
    updatedAt,
  };
  if (duePeriod(timing, now) !== null && startOfDay(tick).getTime() === startOfDay(now).getTime())
    return tick;
  // The next due day after today.
  for (let days = 1; days <= 62; days++) {
    const day = new Date(startOfDay(now).getTime() + days * DAY_MS);
    const due = dueDay(timing, day);
    if (due && due.getTime() === day.getTime()) return day;
  }
  return null;
}
