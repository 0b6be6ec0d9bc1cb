// The one verdict a person sees first about a meeting (issue 21, part 4), from the decoder's findings
// and the integrity outcome together. The viewer shows it at the top and the meeting card in a message
// shows the same one, so both read it from here. Rules:
// - "Verified recording" (the only good tone) needs a valid manifest AND verified audio;
// - any manifest error wins over the audio outcome: an invalid manifest is never shown as good, and its
//   recording plays only after an explicit "Play anyway", and only when the audio itself matched;
// - a valid manifest whose audio differs says so, with the members that differ.
import type { Finding } from './findings';
import type { IntegrityOutcome } from './integrity';

export type VerdictKind =
  'verified' | 'invalid' | 'mismatch' | 'unreadable' | 'missing' | 'not-checked' | 'checking';

/** `good` is used for `verified` only; `bad` for errors and foreign audio; `caution` for no audio. */
export type VerdictTone = 'good' | 'bad' | 'caution' | 'neutral';

/**
 * `play`: the recording plays with its transcripts. `play-anyway`: the audio matched the manifest's
 * integrity values but the manifest has errors, so it plays only after the person chooses to.
 * `refused`: there is nothing that belongs to this manifest to play.
 */
export type VerdictPlayback = 'play' | 'play-anyway' | 'refused';

export interface ManifestVerdict {
  kind: VerdictKind;
  tone: VerdictTone;
  /** The headline: "Verified recording", "Manifest has errors", "Audio does not belong to this manifest"… */
  title: string;
  /** One or two sentences saying what it means for the recording. */
  detail: string;
  /** The errors to list right under the headline: every manifest error when `invalid`, else none. */
  errors: readonly Finding[];
  playback: VerdictPlayback;
}

export interface VerdictInput {
  /** False when the manifest has errors (ManifestReport.valid); errors.length decides when absent. */
  valid?: boolean;
  errors: readonly Finding[];
  /** The integrity outcome; absent while it is not known yet (a card before its check finished). */
  integrity?: Pick<IntegrityOutcome, 'status' | 'mismatches' | 'reason'>;
}

/** A ManifestReport is a VerdictInput, so `manifestVerdict(report)` works as is. */
export function manifestVerdict(input: VerdictInput): ManifestVerdict {
  const integrity = input.integrity;
  if (input.valid === false || input.errors.length > 0)
    return invalidVerdict(input.errors, integrity);
  const none: readonly Finding[] = [];
  if (!integrity) {
    return {
      kind: 'checking',
      tone: 'neutral',
      title: 'Checking recording…',
      detail: 'The audio is being checked against the manifest.',
      errors: none,
      playback: 'refused',
    };
  }
  switch (integrity.status) {
    case 'verified':
      return {
        kind: 'verified',
        tone: 'good',
        title: 'Verified recording',
        detail:
          'The audio is the recording this manifest describes; its transcripts follow playback.',
        errors: none,
        playback: 'play',
      };
    case 'mismatch':
      return {
        kind: 'mismatch',
        tone: 'bad',
        title: 'Audio does not belong to this manifest',
        detail: `${differing(integrity.mismatches)} It will not play with these transcripts.`,
        errors: none,
        playback: 'refused',
      };
    case 'unreadable':
      return {
        kind: 'unreadable',
        tone: 'bad',
        title: 'Recording cannot be read',
        detail: `${sentence(integrity.reason ?? 'it is not a single-stream Ogg Opus file')} It was not checked and will not play.`,
        errors: none,
        playback: 'refused',
      };
    case 'missing':
      return {
        kind: 'missing',
        tone: 'caution',
        title: 'No recording found',
        detail: `${sentence(integrity.reason ?? 'no audio file was found')} Choose the audio file to check it.`,
        errors: none,
        playback: 'refused',
      };
    case 'not-checked':
      return {
        kind: 'not-checked',
        tone: 'neutral',
        title: 'Recording not checked',
        detail: sentence(integrity.reason ?? 'the audio was not checked'),
        errors: none,
        playback: 'refused',
      };
  }
}

function invalidVerdict(
  errors: readonly Finding[],
  integrity: VerdictInput['integrity'],
): ManifestVerdict {
  const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
  const base = { kind: 'invalid', tone: 'bad', title: 'Manifest has errors', errors } as const;
  switch (integrity?.status) {
    case 'verified':
      return {
        ...base,
        detail: `The manifest has ${count}. The audio matches its integrity values, but an invalid manifest cannot vouch for it: play it only if you trust where it came from.`,
        playback: 'play-anyway',
      };
    case 'mismatch':
      return {
        ...base,
        detail: `The manifest has ${count}, and the audio does not belong to it either: ${differing(integrity.mismatches)}`,
        playback: 'refused',
      };
    case 'unreadable':
    case 'missing':
      return {
        ...base,
        detail: `The manifest has ${count}, and there is no playable recording: ${sentence(integrity.reason ?? `the audio is ${integrity.status}`)}`,
        playback: 'refused',
      };
    default:
      return {
        ...base,
        detail: `The manifest has ${count}; the recording was not checked.`,
        playback: 'refused',
      };
  }
}

function differing(members: readonly string[]): string {
  if (members.length === 0) return 'Its integrity values differ.';
  return `${members.join(', ')} ${members.length === 1 ? 'differs' : 'differ'} from the manifest's integrity values.`;
}

/** A reason as a sentence: capitalised, ending with a full stop. */
function sentence(reason: string): string {
  const text = reason.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
