// SubRip: blocks of an index line, a `00:00:01,000 --> 00:00:02,000` line and text lines.
import {
  blocksOf,
  parseTimingLine,
  plainText,
  splitLines,
  type Cue,
  type ParseOutcome,
} from './cue';

export function parseSrt(text: string): ParseOutcome {
  const cues: Cue[] = [];
  for (const block of blocksOf(splitLines(text))) {
    // The index line is optional in practice; accept the timing line first or second.
    const timingAt = /^\s*\d+\s*$/.test(block[0]) ? 1 : 0;
    const timing = block[timingAt] === undefined ? null : parseTimingLine(block[timingAt]);
    if (!timing)
      return { ok: false, reason: `bad SubRip block starting ${JSON.stringify(block[0])}` };
    cues.push({ ...timing, text: plainText(block.slice(timingAt + 1).join('\n')) });
  }
  return { ok: true, timed: true, cues };
}
