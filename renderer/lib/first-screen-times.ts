// The times a first screen shows, relabelled when it is shown. A copy of the chat says "Today",
// "3 minutes ago" or "10:42 AM" as of when it was taken: a copy kept yesterday, or one the build made
// for a first launch whose dates the realm's copy moved (docs/first-screen.md), would show them
// wrong until the live app replaced it. So the capture marks each time it knows with how the app
// labels it (its <time datetime> holds the moment), main moves a first launch's moments by the
// copy's shift, and the early script labels them again with the app's own functions, at its now.
// Without Intl where it can: a fresh page's first Intl formatter loads the locale's data, a long
// task before the copy could paint (docs/benchmarks.md, fifteenth pass). A label in words is
// written as is; a label in one of the app's formats keeps the copy's text when the capture vouched
// that this text is that format's of the same local moment in the same language (the page's own
// copy on a later launch, as a rule: the same moments), and is formatted otherwise.
import { dayLabelOf, labelText, lastActiveWords, type TimeLabel } from './format';

/** On a copy's <time> elements: how the app labels it (sanitize-screen.ts lets data-first-screen-* through). */
export const FIRST_SCREEN_TIME_ATTRIBUTE = 'data-first-screen-time';
/** Beside it, when the text is a format's: which one, of which local moment (formattedKey). */
export const FIRST_SCREEN_FORMATTED_ATTRIBUTE = 'data-first-screen-formatted';

export type FirstScreenTimeKind = 'time12' | 'time24' | 'day' | 'ago';

/** Where the chat's views put each kind of time (MessageRow, RecipientHeader, Recent). */
const KINDS: ReadonlyArray<[selector: string, kind: FirstScreenTimeKind | 'clock']> = [
  ['.sender-line > time[datetime]', 'clock'],
  ['time.recipient-date[datetime]', 'day'],
  ['.date-separator > time[datetime]', 'day'],
  ['.recent-time > time[datetime]', 'ago'],
];

/**
 * Marks the copy's times with their kind; the clock's by the account's 12 or 24 hour setting. A
 * time whose text is, as of `nowMs`, the app's format of its moment also gets that format's key.
 */
export function markFirstScreenTimes(
  copy: ParentNode,
  twentyFourHour: boolean,
  nowMs: number = Date.now(),
): void {
  for (const [selector, kind] of KINDS) {
    const marked = kind === 'clock' ? (twentyFourHour ? 'time24' : 'time12') : kind;
    for (const element of copy.querySelectorAll(selector)) {
      element.setAttribute(FIRST_SCREEN_TIME_ATTRIBUTE, marked);
      const label = labelOfElement(element, nowMs);
      // Only a text the app's format gives now: one drawn before midnight may be a day behind.
      if (label && 'style' in label && element.textContent === labelText(label))
        element.setAttribute(FIRST_SCREEN_FORMATTED_ATTRIBUTE, formattedKey(label));
    }
  }
}

/** How the app labels the moment `unixSeconds` of this kind at `nowMs`; null for no kind of ours. */
export function firstScreenTimeLabelOf(
  kind: string,
  unixSeconds: number,
  nowMs: number,
): TimeLabel | null {
  switch (kind) {
    case 'time12':
    case 'time24':
      return { style: kind, unixSeconds };
    case 'day':
      return dayLabelOf(unixSeconds, nowMs);
    case 'ago': {
      const words = lastActiveWords(unixSeconds, nowMs);
      return words === null ? { style: 'date', unixSeconds } : { words };
    }
    default:
      return null;
  }
}

/**
 * What a format's text depends on, Intl apart: the format, the local minute of the moment (its time
 * zone's), and the page's language. Two equal keys are the same text.
 */
function formattedKey(label: { style: string; unixSeconds: number }): string {
  const d = new Date(label.unixSeconds * 1000);
  const local = [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()];
  return `${label.style} ${local.join('-')} ${navigator.language}`;
}

function labelOfElement(element: Element, nowMs: number): TimeLabel | null {
  const at = Date.parse(element.getAttribute('datetime') ?? '');
  const kind = element.getAttribute(FIRST_SCREEN_TIME_ATTRIBUTE);
  return Number.isNaN(at) || kind === null ? null : firstScreenTimeLabelOf(kind, at / 1000, nowMs);
}

/**
 * Labels each marked time of a copy again, as the app would label its moment now: a format's text
 * the capture vouched for stays, without Intl.
 */
export function relabelFirstScreenTimes(copy: ParentNode, nowMs: number): void {
  for (const element of copy.querySelectorAll(`time[${FIRST_SCREEN_TIME_ATTRIBUTE}]`)) {
    const label = labelOfElement(element, nowMs);
    if (!label) continue;
    if ('words' in label) element.textContent = label.words;
    else if (element.getAttribute(FIRST_SCREEN_FORMATTED_ATTRIBUTE) !== formattedKey(label))
      element.textContent = labelText(label);
  }
}
