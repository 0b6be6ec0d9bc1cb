// Formatting of times, names and counts for display.

// Intl formatters are costly to create (toLocaleTimeString with options makes one per call), and a
// message list formats a time per row: keep one per style, made at first use (the page's early
// script, renderer/first-screen.ts, bundles this module and must not make them before it has asked
// for the screen).
const formats = new Map<string, Intl.DateTimeFormat>();
const FORMAT_OPTIONS = {
  time12: { hour: 'numeric', minute: '2-digit', hour12: true },
  time24: { hour: 'numeric', minute: '2-digit', hour12: false },
  date: { year: 'numeric', month: 'short', day: 'numeric' },
  weekday: { weekday: 'long' },
  monthDay: { month: 'short', day: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
/** The app's formats of a moment (each one Intl.DateTimeFormat in the default locale). */
export type TimeStyle = keyof typeof FORMAT_OPTIONS;
function format(style: TimeStyle): Intl.DateTimeFormat {
  let made = formats.get(style);
  if (!made) formats.set(style, (made = new Intl.DateTimeFormat(undefined, FORMAT_OPTIONS[style])));
  return made;
}

/**
 * How the app labels a moment: in words of its own ("Today", "5 minutes ago"), or as the moment in
 * one of its formats. Apart so that a label can be decided without Intl: a page's first use of Intl
 * loads the locale's data, a long task in a fresh page (the early script labels a kept copy's
 * times with these and formats only what changed: lib/first-screen-times.ts).
 */
export type TimeLabel = { words: string } | { style: TimeStyle; unixSeconds: number };

export function labelText(label: TimeLabel): string {
  return 'words' in label ? label.words : format(label.style).format(label.unixSeconds * 1000);
}

export function formatTime(unixSeconds: number, twentyFourHour = false): string {
  return format(twentyFourHour ? 'time24' : 'time12').format(unixSeconds * 1000);
}

export function formatDate(unixSeconds: number): string {
  return format('date').format(unixSeconds * 1000);
}

/** The calendar day (in the local time zone) of a moment, as a day count: two moments are on the
 * same day when these are equal, and their difference is a number of calendar days. */
export function localDay(unixSeconds: number): number {
  const d = new Date(unixSeconds * 1000);
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000;
}

/** dayLabel's label, before any formatting. */
export function dayLabelOf(unixSeconds: number, nowMs: number): TimeLabel {
  const age = localDay(nowMs / 1000) - localDay(unixSeconds);
  if (age === 0) return { words: 'Today' };
  if (age === 1) return { words: 'Yesterday' };
  if (age > 1 && age < 7) return { style: 'weekday', unixSeconds };
  if (new Date(unixSeconds * 1000).getFullYear() === new Date(nowMs).getFullYear())
    return { style: 'monthDay', unixSeconds };
  return { style: 'date', unixSeconds };
}

/**
 * A message's day as the public app labels it in the list: "Today", "Yesterday", the weekday within
 * the last week, else the date (with the year when it is not this year's).
 */
export function dayLabel(unixSeconds: number, nowMs: number = Date.now()): string {
  return labelText(dayLabelOf(unixSeconds, nowMs));
}

/** lastActiveLabel's words, or null past two days (the date then). */
export function lastActiveWords(timestamp: number, nowMs: number): string | null {
  const seconds = Math.max(0, nowMs / 1000 - timestamp);
  if (seconds < 60) return 'Just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  if (hours < 48) return 'Yesterday';
  return null;
}

/**
 * When a conversation was last active, in the public web app's words: "Just now", "5 minutes
 * ago", "3 hours ago", "Yesterday", then the date.
 */
export function lastActiveLabel(
  timestamp: number,
  nowMs: number,
  dateLabel: (t: number) => string,
) {
  return lastActiveWords(timestamp, nowMs) ?? dateLabel(timestamp);
}

export function formatDateTime(unixSeconds: number, twentyFourHour = false): string {
  return `${formatDate(unixSeconds)} ${formatTime(unixSeconds, twentyFourHour)}`;
}

/** One formatter per time zone asked for; null for a zone Intl does not know. */
const zoneTimeFormats = new Map<string, Intl.DateTimeFormat | null>();
function zoneTimeFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = zoneTimeFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(undefined, { timeZone, hour: 'numeric', minute: '2-digit' });
    } catch {
      format = null; // RangeError: unknown time zone
    }
    zoneTimeFormats.set(timeZone, format);
  }
  return format;
}

/** Local time in another user's time zone (empty if the zone is unknown). */
export function localTimeIn(timeZone: string, now = new Date()): string {
  if (!timeZone) return '';
  return zoneTimeFormat(timeZone)?.format(now) ?? '';
}

export function roleName(role: number): string {
  switch (role) {
    case 100:
      return 'Owner';
    case 200:
      return 'Administrator';
    case 300:
      return 'Moderator';
    case 600:
      return 'Guest';
    default:
      return 'Member';
  }
}

/** "in 12 s" style countdown to a retry time. */
export function secondsUntil(at: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Wall-clock milliseconds. Components that filter by time (typing, edit limits) read it here. */
export function clockNow(): number {
  return Date.now();
}
