// Parses a transcript payload by its manifest `format` (manifest-decisions §5).
import type { ParseOutcome, SpeakerRef } from './cue';
import { normalizeTranscriptFormat } from './formats';
import { parseSegmentsJson } from './segments-json';
import { parseSrt } from './srt';
import { parsePlainText } from './text';
import { parseWebVtt } from './webvtt';

export type { Cue, WordTiming, ParseOutcome, SpeakerRef } from './cue';
export { normalizeTranscriptFormat, type TranscriptFormat } from './formats';
export { parseWebVtt, parseSrt, parseSegmentsJson, parsePlainText };

export type TranscriptParse = ParseOutcome | { ok: false; unsupported: true; reason: string };

/** Decodes UTF-8 bytes and parses them; never throws. */
export function parseTranscript(
  format: string,
  payload: Uint8Array | string,
  speakers: readonly SpeakerRef[],
): TranscriptParse {
  const canonical = normalizeTranscriptFormat(format);
  if (canonical === null) return { ok: false, unsupported: true, reason: 'format not supported' };
  let text: string;
  if (typeof payload === 'string') {
    text = payload;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(payload);
    } catch {
      return { ok: false, reason: 'the payload is not UTF-8 text' };
    }
  }
  switch (canonical) {
    case 'webvtt':
      return parseWebVtt(text, speakers);
    case 'srt':
      return parseSrt(text);
    case 'segments-json':
      return parseSegmentsJson(text, speakers);
    case 'text':
      return parsePlainText(text);
  }
}
