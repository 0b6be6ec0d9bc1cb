// Global times: <time:…> becomes <time datetime="…Z">…</time> in UTC, and input that is no time
// becomes a timestamp-error span, as the public server writes them. Accepted: ISO 8601 (with an
// offset below 24 hours), UNIX seconds, and dates written out ("31 Dec 2017", "Jun 5th 2017,
// 10:30PM", "31 Dec 2017 5:30 am IST") with an optional time, am/pm and zone; a date without a
// zone is UTC. Years outside 1-9999 (also after conversion to UTC) are errors.
import type { MarkdownIt, StateInline } from 'markdown-it';
import { escapeText } from './escape';

const TIME = /^<time:([^>]*?)>/;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const FULL_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAYS =
  /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day|nesday|rsday|urday)?$|^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/;

/** Offsets in minutes of the zone abbreviations the public server knows best. */
const ZONES: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  ist: 330,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  bst: 60,
  wet: 0,
  west: 60,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  jst: 540,
  kst: 540,
  aest: 600,
  aedt: 660,
  acst: 570,
  awst: 480,
  nzst: 720,
  nzdt: 780,
  sgt: 480,
  hkt: 480,
  msk: 180,
};

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  /** Minutes east of UTC; undefined for none given. */
  offset?: number;
}

function parseIso(text: string): Parts | null | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  let offset: number | undefined;
  if (m[8]) {
    if (m[8].toUpperCase() === 'Z') offset = 0;
    else {
      const digits = m[8].replace(':', '');
      const hours = Number(digits.slice(1, 3));
      const minutes = Number(digits.slice(3, 5));
      if (hours >= 24 || minutes >= 60) return null;
      offset = (digits[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
    }
  }
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    micro: Number((m[7] ?? '').padEnd(6, '0') || 0),
    offset,
  };
}

function monthOf(word: string): number | undefined {
  const short = MONTHS.indexOf(word);
  if (short !== -1) return short + 1;
  const full = FULL_MONTHS.indexOf(word);
  return full === -1 ? undefined : full + 1;
}

/** Dates written out: words and numbers in any of the usual orders. */
function parseWritten(text: string): Parts | null {
  const tokens = text
    .toLowerCase()
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '');
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let offset: number | undefined;
  let meridiem: 'am' | 'pm' | undefined;
  for (const token of tokens) {
    const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm|a\.m\.|p\.m\.)?$/.exec(token);
    if (time) {
      hour = Number(time[1]);
      minute = Number(time[2]);
      second = Number(time[3] ?? 0);
      if (time[4]) meridiem = time[4].startsWith('a') ? 'am' : 'pm';
      continue;
    }
    const bareHour = /^(\d{1,2})(am|pm)$/.exec(token);
    if (bareHour) {
      hour = Number(bareHour[1]);
      meridiem = bareHour[2] as 'am' | 'pm';
      continue;
    }
    if (token === 'am' || token === 'pm' || token === 'a.m.' || token === 'p.m.') {
      meridiem = token.startsWith('a') ? 'am' : 'pm';
      continue;
    }
    const word = token.replace(/\.$/, '');
    const named = monthOf(word);
    if (named !== undefined && month === undefined) {
      month = named;
      continue;
    }
    if (WEEKDAYS.test(word)) continue;
    if (word in ZONES) {
      offset = ZONES[word];
      continue;
    }
    const zone = /^(?:utc|gmt)?([+-])(\d{2}):?(\d{2})$/.exec(word);
    if (zone) {
      offset = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
      continue;
    }
    const number = /^(\d+)(st|nd|rd|th)?$/.exec(word);
    if (number) {
      const value = Number(number[1]);
      if (number[1].length === 4 && !number[2] && year === undefined) year = value;
      else if (day === undefined && value >= 1 && value <= 31) day = value;
      else if (year === undefined && !number[2]) year = value < 100 ? 2000 + value : value;
      else return null;
      continue;
    }
    return null;
  }
  if (month === undefined || day === undefined || year === undefined) return null;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  return { year, month, day, hour, minute, second, micro: 0, offset };
}

function isValid(p: Parts): boolean {
  if (p.year < 1 || p.year > 9999 || p.month < 1 || p.month > 12) return false;
  const days = new Date(Date.UTC(2000, p.month, 0)).getUTCDate();
  const leap = p.year % 4 === 0 && (p.year % 100 !== 0 || p.year % 400 === 0);
  const max = p.month === 2 ? (leap ? 29 : 28) : days;
  return p.day >= 1 && p.day <= max && p.hour < 24 && p.minute < 60 && p.second < 60;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** The UTC ISO form of parts, or null when it falls outside years 1-9999. */
function toUtcIso(p: Parts): string | null {
  const date = new Date(0);
  date.setUTCFullYear(p.year, p.month - 1, p.day);
  date.setUTCHours(p.hour, p.minute - (p.offset ?? 0), p.second, 0);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  const fraction = p.micro ? `.${pad(p.micro, 6)}` : '';
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}${fraction}Z`
  );
}

function fromUnix(text: string): string | null {
  if (!/^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(text)) return null;
  const seconds = Number(text);
  const millis = Math.floor(seconds * 1000);
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(millis) || year < 1 || year > 9999) return null;
  const micro = Math.round((seconds - Math.floor(seconds)) * 1e6);
  return toUtcIso({
    year,
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    micro,
    offset: 0,
  });
}

/** The ISO UTC datetime a <time:…> input stands for, or null when it is no valid time. */
export function parseGlobalTime(input: string): string | null {
  const iso = parseIso(input);
  if (iso === null) return null;
  if (iso) return isValid(iso) ? toUtcIso(iso) : null;
  if (/^\s*\d{8}\s*$/.test(input)) {
    const digits = input.trim();
    const parts: Parts = {
      year: Number(digits.slice(0, 4)),
      month: Number(digits.slice(4, 6)),
      day: Number(digits.slice(6, 8)),
      hour: 0,
      minute: 0,
      second: 0,
      micro: 0,
    };
    if (isValid(parts)) return toUtcIso(parts);
  }
  if (/^\s*[+-]?[\d.]+\s*$/.test(input)) return fromUnix(input);
  const written = parseWritten(input);
  if (!written || !isValid(written)) return null;
  return toUtcIso(written);
}

function timeRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const match = TIME.exec(state.src.slice(state.pos, state.posMax));
  if (!match) return false;
  if (!silent) {
    const input = match[1];
    const datetime = parseGlobalTime(input);
    const token = state.push('chat_html', '', 0);
    token.content =
      datetime === null
        ? `<span class="timestamp-error">Invalid time format: ${escapeText(input)}</span>`
        : `<time datetime="${datetime}">${escapeText(input)}</time>`;
  }
  state.pos += match[0].length;
  return true;
}

export const timePlugin = (md: MarkdownIt): void => {
  md.inline.ruler.before('link', 'chat_time', timeRule);
};
