// The integrity outcome (manifest-decisions §4): the audio's computed `exact-opus-audio-v1` values
// against the manifest's `integrity` object.
import type { OpusIntegrityValues, OpusReadResult } from '../ogg';
import { isPlainObject } from './payload-ref';

/** The compared members, in the order mismatches are listed. */
export const INTEGRITY_MEMBERS = [
  'matchPolicy',
  'opusAudioSha256',
  'sampleRate',
  'channels',
  'sampleCount',
  'durationMs',
] as const;
export type IntegrityMember = (typeof INTEGRITY_MEMBERS)[number];

export type IntegrityStatus = 'verified' | 'mismatch' | 'unreadable' | 'missing' | 'not-checked';

export interface IntegrityOutcome {
  /**
   * `verified`, `mismatch`, `unreadable` and `missing` are the decisions' outcomes; `not-checked` is
   * used only when the manifest itself could not be decoded (not JSON, unsupported version), so there
   * is nothing to compare against.
   */
  status: IntegrityStatus;
  /**
   * Differing members when `mismatch`, else empty: integrity members whose value differs, then any
   * member the closed `integrity` object does not allow (the format makes those a verification
   * failure, meeting-manifest §7.1).
   */
  mismatches: string[];
  /** Why the audio is unreadable or missing, or was not checked. */
  reason?: string;
  /** Where the audio came from, for display. */
  audioSource?: AudioSourceDescription;
  /** The values computed from the audio, when it was readable. */
  actual?: OpusIntegrityValues;
}

export interface AudioSourceDescription {
  /** How the audio was found (manifest-decisions §3), or `argument` when the user named it. */
  via: 'argument' | 'payloadRef' | 'attachment' | 'sibling' | 'only-file';
  /** File path, or `attachment:NAME` for an embedded attachment. */
  location: string;
}

/**
 * Compares computed values with the manifest's `integrity` object (which may be malformed). A
 * `matchPolicy` other than exact-opus-audio-v1 is a mismatch: these values verify nothing under
 * another policy.
 */
export function compareIntegrity(
  expected: unknown,
  read: OpusReadResult,
  audioSource?: AudioSourceDescription,
): IntegrityOutcome {
  if (!read.ok) return { status: 'unreadable', mismatches: [], reason: read.reason, audioSource };
  const declared = isPlainObject(expected) ? expected : {};
  const known: readonly string[] = INTEGRITY_MEMBERS;
  const mismatches: string[] = [
    ...INTEGRITY_MEMBERS.filter((m) => declared[m] !== read.values[m]),
    ...Object.keys(declared).filter((m) => !known.includes(m)),
  ];
  return {
    status: mismatches.length === 0 ? 'verified' : 'mismatch',
    mismatches,
    audioSource,
    actual: read.values,
  };
}
