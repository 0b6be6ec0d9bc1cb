// The times a first screen shows, relabelled when it is shown. A copy of the chat says "Today",
// "3 minutes ago" or "10:42 AM" as of when it was taken: a copy kept yesterday, or one the build made
// for a first launch whose dates the realm's copy moved (docs/first-screen.md), would show them
// wrong until the live app replaced it. So the capture marks each time it knows with how the app
// labels it (its <time datetime> holds the moment), main moves a first launch's moments by the
// copy's shift, and the early script labels them again with the app's own functions, at its now.
import { dayLabel, formatDate, formatTime, lastActiveLabel } from './format';

/** On a copy's <time> elements: how the app labels it (sanitize-screen.ts lets data-first-screen-* through). */
export const FIRST_SCREEN_TIME_ATTRIBUTE = 'data-first-screen-time';

export type FirstScreenTimeKind = 'time12' | 'time24' | 'day' | 'ago';

/** Where the chat's views put each kind of time (MessageRow, RecipientHeader, Recent). */
const KINDS: ReadonlyArray<[selector: string, kind: FirstScreenTimeKind | 'clock']> = [
  ['.sender-line > time[datetime]', 'clock'],
  ['time.recipient-date[datetime]', 'day'],
  ['.date-separator > time[datetime]', 'day'],
  ['.recent-time > time[datetime]', 'ago'],
];

/** Marks the copy's times with their kind; the clock's by the account's 12 or 24 hour setting. */
export function markFirstScreenTimes(copy: ParentNode, twentyFourHour: boolean): void {
  for (const [selector, kind] of KINDS) {
    const marked = kind === 'clock' ? (twentyFourHour ? 'time24' : 'time12') : kind;
    for (const element of copy.querySelectorAll(selector))
      element.setAttribute(FIRST_SCREEN_TIME_ATTRIBUTE, marked);
  }
}

/** The label the app gives the moment `unixSeconds` of this kind at `nowMs`. */
export function firstScreenTimeLabel(
  kind: string,
  unixSeconds: number,
  nowMs: number,
): string | null {
  switch (kind) {
    case 'time12':
      return formatTime(unixSeconds, false);
    case 'time24':
      return formatTime(unixSeconds, true);
    case 'day':
      return dayLabel(unixSeconds, nowMs);
    case 'ago':
      return lastActiveLabel(unixSeconds, nowMs, formatDate);
    default:
      return null;
  }
}

/** Labels each marked time of a copy again, as the app would label its moment now. */
export function relabelFirstScreenTimes(copy: ParentNode, nowMs: number): void {
  for (const element of copy.querySelectorAll(`time[${FIRST_SCREEN_TIME_ATTRIBUTE}]`)) {
    const at = Date.parse(element.getAttribute('datetime') ?? '');
    const label = Number.isNaN(at)
      ? null
      : firstScreenTimeLabel(element.getAttribute(FIRST_SCREEN_TIME_ATTRIBUTE)!, at / 1000, nowMs);
    if (label !== null) element.textContent = label;
  }
}
