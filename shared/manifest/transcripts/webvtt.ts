// WebVTT cues with `<v Name>` voice spans giving the speaker (manifest-decisions §5).
import {
  blocksOf,
  matchSpeaker,
  parseTimingLine,
  plainText,
  splitLines,
  type Cue,
  type ParseOutcome,
  type SpeakerRef,
} from './cue';

// One separator, then the name up to the next '<' or '>': every scan stops at the next tag, so a
// hostile payload ("<v" followed by endless spaces) cannot make the match quadratic. The name is
// trimmed afterwards.
const VOICE = /<v(?:\.[^\s<>]*)?[ \t]([^<>]*)>/;

export function parseWebVtt(text: string, speakers: readonly SpeakerRef[]): ParseOutcome {
  const lines = splitLines(text);
  if (!/^WEBVTT([ \t].*)?$/.test(lines[0] ?? '')) {
    return { ok: false, reason: 'a WebVTT file must start with "WEBVTT"' };
  }
  const cues: Cue[] = [];
  // The header block (first line and any lines directly under it) is skipped with the first block.
  for (const block of blocksOf(lines).slice(1)) {
    const timingAt = block.findIndex((l) => l.includes('-->'));
    // NOTE, STYLE and REGION blocks have no timing line; a cue has it first or after its identifier.
    if (timingAt < 0 || timingAt > 1) continue;
    const timing = parseTimingLine(block[timingAt]);
    if (!timing)
      return { ok: false, reason: `bad cue timing line: ${JSON.stringify(block[timingAt])}` };
    const payload = block.slice(timingAt + 1).join('\n');
    const cue: Cue = { ...timing, text: plainText(payload) };
    const voice = VOICE.exec(payload)?.[1]?.trim();
    if (voice) {
      const speakerId = matchSpeaker(voice, speakers);
      if (speakerId !== undefined) cue.speakerId = speakerId;
      else cue.voice = voice;
    }
    cues.push(cue);
  }
  return { ok: true, timed: true, cues };
}
