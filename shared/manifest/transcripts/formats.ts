// Transcript formats the project understands (manifest-decisions §5). Names are case-insensitive and
// each has a MIME alias; MIME parameters (`; charset=utf-8`) are ignored.
export type TranscriptFormat = 'webvtt' | 'srt' | 'segments-json' | 'text';

const BY_NAME: Record<string, TranscriptFormat> = {
  webvtt: 'webvtt',
  'text/vtt': 'webvtt',
  srt: 'srt',
  'application/x-subrip': 'srt',
  'segments-json': 'segments-json',
  'application/vnd.meeting-segments+json': 'segments-json',
  text: 'text',
  'text/plain': 'text',
};

/** The canonical format for a manifest `format` value, or null when it is not supported. */
export function normalizeTranscriptFormat(format: string): TranscriptFormat | null {
  const lower = format.toLowerCase();
  const withoutParams = lower.includes('/') ? lower.split(';')[0].trim() : lower;
  return Object.prototype.hasOwnProperty.call(BY_NAME, withoutParams)
    ? BY_NAME[withoutParams]
    : null;
}
