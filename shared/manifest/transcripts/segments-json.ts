// `{"segments":[{"startMs","endMs","speaker"?,"text","words"?:[{"startMs","endMs","text"}]}]}`,
// where `speaker` is a speaker id (manifest-decisions §5). Validated with zod; unknown members ignored.
import * as z from 'zod';
import type { Cue, ParseOutcome, SpeakerRef } from './cue';

const ms = () => z.number().int().min(0);
const wordSchema = z.looseObject({ startMs: ms(), endMs: ms(), text: z.string() });
const segmentsSchema = z.looseObject({
  segments: z.array(
    z.looseObject({
      startMs: ms(),
      endMs: ms(),
      speaker: z.string().optional(),
      text: z.string(),
      words: z.array(wordSchema).optional(),
    }),
  ),
});

export function parseSegmentsJson(text: string, speakers: readonly SpeakerRef[]): ParseOutcome {
  let doc: unknown;
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = segmentsSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `at /${issue.path.join('/')}: ${issue.message}` };
  }
  const known = new Set(speakers.map((s) => s.id));
  const cues = parsed.data.segments.map((seg): Cue => {
    const cue: Cue = { startMs: seg.startMs, endMs: seg.endMs, text: seg.text };
    if (seg.speaker !== undefined) {
      if (known.has(seg.speaker)) cue.speakerId = seg.speaker;
      else cue.voice = seg.speaker;
    }
    if (seg.words)
      cue.words = seg.words.map((w) => ({ startMs: w.startMs, endMs: w.endMs, text: w.text }));
    return cue;
  });
  return { ok: true, timed: true, cues };
}
