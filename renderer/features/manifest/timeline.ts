// Pure helpers over parsed cues: which cue and word are current at a playback time, searching, and
// naming transcripts by their role and source chain. No React here, so the logic is tested directly.
import type { Cue, TranscriptView } from '../../../shared/manifest';

/**
 * Index of the cue being spoken at `ms`: the last cue that started at or before `ms` and has not
 * ended. Cues are in time order (the parsers keep payload order; overlapping cues are allowed, the
 * later start wins). -1 between cues and before the first.
 */
export function activeCueIndex(cues: readonly Cue[], ms: number): number {
  let lo = 0;
  let hi = cues.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cues[mid].startMs <= ms) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  // Walk back over cues that started earlier but may still run (overlaps, however long): no cue at
  // or before i ends after the latest end among them, so the walk stops there.
  const latestEnd = latestEnds(cues);
  for (let i = found; i >= 0 && latestEnd[i] > ms; i--) {
    if (ms < cues[i].endMs) return i;
  }
  return -1;
}

const latestEndsCache = new WeakMap<readonly Cue[], Float64Array>();

/** latestEnd[i] = the largest endMs among cues 0..i; computed once per cue list. */
function latestEnds(cues: readonly Cue[]): Float64Array {
  let ends = latestEndsCache.get(cues);
  if (!ends) {
    ends = new Float64Array(cues.length);
    let latest = -Infinity;
    cues.forEach((cue, i) => (ends![i] = latest = Math.max(latest, cue.endMs)));
    latestEndsCache.set(cues, ends);
  }
  return ends;
}

export function activeWordIndex(cue: Cue | undefined, ms: number): number {
  if (!cue?.words) return -1;
  return cue.words.findIndex((word) => word.startMs <= ms && ms < word.endMs);
}

/**
 * The query as a Unicode case-insensitive pattern (null when empty). Searching and marking use the
 * same pattern, so every cue found has its match marked; matching this way (rather than comparing
 * lower-cased copies) keeps the positions of the original text.
 */
function queryPattern(query: string, flags: 'iu' | 'giu'): RegExp | null {
  const needle = query.trim();
  return needle ? new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags) : null;
}

/** Indices of the cues whose text or speaker contains the query (case-insensitive); all when empty. */
export function searchCues(
  cues: readonly Cue[],
  query: string,
  speakerLabel: (cue: Cue) => string | undefined,
): number[] {
  const pattern = queryPattern(query, 'iu');
  const all = cues.map((_, i) => i);
  if (!pattern) return all;
  return all.filter((i) => {
    const speaker = speakerLabel(cues[i]);
    return pattern.test(cues[i].text) || (speaker !== undefined && pattern.test(speaker));
  });
}

/** Splits text into the parts that match the query (as searchCues matches) and the rest. */
export function highlightMatches(
  text: string,
  query: string,
): Array<{ text: string; match: boolean }> {
  const pattern = queryPattern(query, 'giu');
  if (!pattern) return [{ text, match: false }];
  const parts: Array<{ text: string; match: boolean }> = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), match: false });
    parts.push({ text: m[0], match: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

export const ROLE_NAMES: Record<string, string> = {
  'raw-asr': 'Raw recogniser output',
  'human-corrected': 'Human correction',
  translation: 'Translation',
  scripted: 'Scripted (authoritative)',
  'readable-cleanup': 'Readable cleanup',
  display: 'Display rendering',
};

export function roleName(role: string | undefined): string {
  if (!role) return 'No role given';
  // Own members only: a role read from an invalid manifest may be "constructor" or "toString".
  return Object.hasOwn(ROLE_NAMES, role) ? ROLE_NAMES[role] : role;
}

/** A transcript's key: ids are unique across both lists, but a broken manifest may repeat them. */
export const transcriptKey = (view: Pick<TranscriptView, 'list' | 'index'>) =>
  `${view.list}/${view.index}`;

/**
 * The chain a transcript was derived from, nearest source first, following sourceTranscriptId
 * through `transcripts`. Stops at a loop (the decoder reports `source-cycle`) or an unknown id.
 */
export function sourceChain(
  entryId: string,
  sourceOf: (id: string) => string | undefined,
): { ids: string[]; broken: string | null } {
  const ids: string[] = [];
  const seen = new Set([entryId]);
  let next = sourceOf(entryId);
  while (next !== undefined) {
    if (seen.has(next)) return { ids, broken: `loops back to ${next}` };
    ids.push(next);
    seen.add(next);
    next = sourceOf(next);
  }
  return { ids, broken: null };
}

/** The transcript shown first: a parsed timed default, else any parsed default, else the first parsed. */
export function initialTranscript(views: readonly TranscriptView[]): TranscriptView | undefined {
  const parsed = views.filter((v) => v.status === 'parsed');
  return (
    parsed.find((v) => v.isDefault && v.timed && v.list === 'transcripts') ??
    parsed.find((v) => v.timed) ??
    parsed.find((v) => v.isDefault) ??
    parsed[0] ??
    views[0]
  );
}
