// Formatting of times, names and counts for display.

// Intl formatters are costly to create (toLocaleTimeString with options makes one per call), and a
// message list formats a time per row: keep one per style.
const timeFormat12 = new Intl.DateTimeFormat(undefined, {
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});
const timeFormat24 = new Intl.DateTimeFormat(undefined, {
  hour: 'numeric',
  minute: '2-digit',
  hour12: false,
});
const dateFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

export function formatTime(unixSeconds: number, twentyFourHour = false): string {
  return (twentyFourHour ? timeFormat24 : timeFormat12).format(unixSeconds * 1000);
}

export function formatDate(unixSeconds: number): string {
  return dateFormat.format(unixSeconds * 1000);
}

const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long' });
const monthDayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** The calendar day (in the local time zone) of a moment, as a day count: two moments are on the
 * same day when these are equal, and their difference is a number of calendar days. */
export function localDay(unixSeconds: number): number {
  const d = new Date(unixSeconds * 1000);
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000;
}

/**
 * A message's day as the public app labels it in the list: "Today", "Yesterday", the weekday within
 * the last week, else the date (with the year when it is not this year's).
 */
export function dayLabel(unixSeconds: number, nowMs: number = Date.now()): string {
  const age = localDay(nowMs / 1000) - localDay(unixSeconds);
  if (age === 0) return 'Today';
  if (age === 1) return 'Yesterday';
  if (age > 1 && age < 7) return weekdayFormat.format(unixSeconds * 1000);
  if (new Date(unixSeconds * 1000).getFullYear() === new Date(nowMs).getFullYear())
    return monthDayFormat.format(unixSeconds * 1000);
  return formatDate(unixSeconds);
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
