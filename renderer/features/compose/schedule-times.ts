// The times offered when scheduling a message (as the web app offers them), and the conversions of
// a <input type="datetime-local"> value, which is local wall-clock time without a zone.

export interface SchedulePreset {
  label: string;
  /** UNIX seconds. */
  at: number;
}

function atNine(day: Date): Date {
  const d = new Date(day);
  d.setHours(9, 0, 0, 0);
  return d;
}

/** Tomorrow at 9 am and the next Monday at 9 am (a week ahead on a Monday). */
export function schedulePresets(now: Date): SchedulePreset[] {
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  const monday = new Date(now);
  monday.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7));
  const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
  return [
    { label: 'Tomorrow at 9:00 AM', at: seconds(atNine(tomorrow)) },
    { label: 'Monday at 9:00 AM', at: seconds(atNine(monday)) },
  ];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A datetime-local value ("2026-11-25T09:00") for UNIX seconds, in local time. */
export function toDatetimeLocal(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}`
  );
}

/** UNIX seconds of a datetime-local value, or null when it is empty or malformed. */
export function fromDatetimeLocal(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  return Math.floor(date.getTime() / 1000);
}
