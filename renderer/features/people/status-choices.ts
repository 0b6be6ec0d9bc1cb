// What the Set status dialog offers: the public web app's suggested statuses (its own words and
// emoji names) and the "Automatically clear status" choices, as UNIX seconds from a given moment.

export interface StatusSuggestion {
  text: string;
  emojiName: string;
  emojiCode: string;
}

export const STATUS_SUGGESTIONS: readonly StatusSuggestion[] = [
  { text: 'Busy', emojiName: 'working_on_it', emojiCode: '1f6e0' },
  { text: 'In a meeting', emojiName: 'calendar', emojiCode: '1f4c5' },
  { text: 'Commuting', emojiName: 'bus', emojiCode: '1f68c' },
  { text: 'Out sick', emojiName: 'hurt', emojiCode: '1f915' },
  { text: 'Vacationing', emojiName: 'palm_tree', emojiCode: '1f334' },
  { text: 'Working remotely', emojiName: 'house', emojiCode: '1f3e0' },
  { text: 'At the office', emojiName: 'office', emojiCode: '1f3e2' },
];

export interface ClearAfterChoice {
  id: string;
  label: string;
  /** UNIX seconds at which the status ends, or null for never. */
  endAt(now: Date): number | null;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const inMinutes = (minutes: number) => (now: Date) => seconds(now) + minutes * 60;

/** The end of `now`'s local day (midnight), and of its week (Sunday night, as a week ends). */
function endOfDay(now: Date, extraDays: number): number {
  const d = new Date(now);
  d.setDate(now.getDate() + extraDays + 1);
  d.setHours(0, 0, 0, 0);
  return seconds(d);
}

export const CLEAR_AFTER_CHOICES: readonly ClearAfterChoice[] = [
  { id: 'never', label: 'Never', endAt: () => null },
  { id: '30m', label: 'In 30 minutes', endAt: inMinutes(30) },
  { id: '1h', label: 'In 1 hour', endAt: inMinutes(60) },
  { id: '4h', label: 'In 4 hours', endAt: inMinutes(240) },
  { id: 'today', label: 'Today', endAt: (now) => endOfDay(now, 0) },
  { id: 'week', label: 'This week', endAt: (now) => endOfDay(now, (7 - now.getDay()) % 7) },
];

/** "Clears at 3:30 PM" / "Clears on Fri, Nov 27 at 3:30 PM" for an end time. */
export function clearsAtText(endAt: number, now: Date): string {
  const end = new Date(endAt * 1000);
  const time = end.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  if (end.toDateString() === now.toDateString()) return `Clears at ${time}`;
  const day = end.toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric' });
  return `Clears on ${day} at ${time}`;
}
