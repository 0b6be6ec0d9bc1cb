// What a manifest check produces, for the command line and (through IPC) the viewer. Everything here
// is plain JSON-serialisable data.
import type { Finding } from './findings';
import type { IntegrityOutcome } from './integrity';
import type { TypedManifest } from './schema';
import type { Cue } from './transcripts';

export type TranscriptStatus = 'parsed' | 'unsupported-format' | 'unreadable' | 'unparseable';

export interface TranscriptView {
  list: 'transcripts' | 'readableTranscripts';
  index: number;
  id: string;
  role?: string;
  format: string;
  language?: string;
  isDefault: boolean;
  /** `unsupported-format` is listed as "format not supported"; `unreadable` means the payload failed its checks. */
  status: TranscriptStatus;
  reason?: string;
  /** False for plain text, which is shown but not synchronised with playback. */
  timed: boolean;
  cues: Cue[];
}

export interface ManifestReport {
  manifestPath: string;
  /** No errors from decoding or from reading payloads. */
  valid: boolean;
  errors: Finding[];
  warnings: Finding[];
  /** The decoded manifest, when it decoded without errors. */
  manifest?: TypedManifest;
  transcripts: TranscriptView[];
  integrity: IntegrityOutcome;
}
