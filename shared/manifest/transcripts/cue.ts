// The common shape every transcript parser produces, JSON-serialisable for the renderer.

export interface WordTiming {
  startMs: number;
  endMs: number;
  text: string;
}

export interface Cue {
  startMs: number;
  endMs: number;
  /** The manifest speaker the cue belongs to, when it could be matched. */
  speakerId?: string;
  /** The speaker as written in the payload when it matched no manifest speaker. */
  voice?: string;
  /** Plain text: markup is removed, never to be rendered as HTML. */
  text: string;
  words?: WordTiming[];
}

export type ParseOutcome =
  { ok: true; timed: boolean; cues: Cue[] } | { ok: false; reason: string };

export interface SpeakerRef {
  id: string;
  label: string;
}

/** Matches a name from a payload to a speaker: by label first, then by id (manifest-decisions §5). */
export function matchSpeaker(name: string, speakers: readonly SpeakerRef[]): string | undefined {
  const trimmed = name.trim();
  return (speakers.find((s) => s.label === trimmed) ?? speakers.find((s) => s.id === trimmed))?.id;
}

export function splitLines(text: string): string[] {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.replace(/\r\n?/g, '\n').split('\n');
}

/** Groups lines into blocks separated by blank lines. */
export function blocksOf(lines: string[]): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length) blocks.push(current);
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length) blocks.push(current);
  return blocks;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  lrm: '\u200e',
  rlm: '\u200f',
  quot: '"',
  apos: "'",
};

/**
 * Removes cue markup (<b>, <v Name>, <00:01.000>, <font ...>) and decodes the usual entities. A tag
 * never spans another '<', so a payload full of unclosed '<' is stripped in linear time (`<[^>]*>`
 * rescans to the end from every '<': quadratic, seconds for a 100 kB hostile payload).
 */
export function plainText(markup: string): string {
  return markup
    .replace(/<[^<>]*>/g, '')
    .replace(/&(amp|lt|gt|nbsp|lrm|rlm|quot|apos);/g, (_, name: string) => ENTITIES[name])
    .trim();
}

/** Parses `hh:mm:ss.ttt`, `mm:ss.ttt` (WebVTT) or `hh:mm:ss,ttt` (SRT) into milliseconds. */
export function parseTimestamp(value: string): number | null {
  const m = /^(?:(\d+):)?([0-5]\d):([0-5]\d)[.,](\d{3})$/.exec(value.trim());
  if (!m) return null;
  const hours = m[1] === undefined ? 0 : Number(m[1]);
  return ((hours * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
}

/** Parses a `start --> end [settings]` line; null when the line is not a timing line. */
export function parseTimingLine(line: string): { startMs: number; endMs: number } | null {
  const arrow = line.indexOf('-->');
  if (arrow < 0) return null;
  const startMs = parseTimestamp(line.slice(0, arrow));
  const endMs = parseTimestamp(
    line
      .slice(arrow + 3)
      .trim()
      .split(/[ \t]+/)[0] ?? '',
  );
  if (startMs === null || endMs === null) return null;
  return { startMs, endMs };
}
