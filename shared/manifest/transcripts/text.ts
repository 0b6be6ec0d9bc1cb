// Plain text: shown, not synchronised with playback. One untimed cue per non-empty line.
import { splitLines, type ParseOutcome } from './cue';

export function parsePlainText(text: string): ParseOutcome {
  const cues = splitLines(text)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => ({ startMs: 0, endMs: 0, text: line }));
  return { ok: true, timed: false, cues };
}
