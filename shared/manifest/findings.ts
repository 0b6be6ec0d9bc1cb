// Findings are what the decoder, the payload reader and the verifier report (manifest-decisions §7).
// Each names a code from the decisions table, a JSON Pointer into the manifest and a message.

export type ErrorCode =
  | 'not-json'
  | 'unsupported-version'
  | 'missing-member'
  | 'wrong-type'
  | 'bad-constant'
  | 'pattern-mismatch'
  | 'out-of-range'
  | 'too-few-items'
  | 'bad-enum'
  | 'closed-member'
  | 'bad-payload-ref'
  | 'duplicate-id'
  | 'unknown-source'
  | 'raw-asr-has-source'
  | 'source-cycle'
  | 'payload-unreadable'
  | 'payload-hash-mismatch'
  | 'payload-length-mismatch';

export type WarningCode =
  | 'source-expected'
  | 'attempt-without-job'
  | 'multiple-defaults'
  | 'audio-disagrees'
  | 'unsupported-format';

export type FindingCode = ErrorCode | WarningCode;

export interface Finding {
  code: FindingCode;
  /** JSON Pointer (RFC 6901) into the manifest; '' is the whole document. */
  path: string;
  message: string;
}

export type PathSegment = string | number;

/** Builds an RFC 6901 pointer, escaping '~' and '/' inside member names. */
export function pointer(segments: readonly PathSegment[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Collects errors and warnings in the order they are found. */
export class FindingSink {
  readonly errors: Finding[] = [];
  readonly warnings: Finding[] = [];

  error(code: ErrorCode, path: readonly PathSegment[] | string, message: string): void {
    this.errors.push({ code, path: typeof path === 'string' ? path : pointer(path), message });
  }

  warning(code: WarningCode, path: readonly PathSegment[] | string, message: string): void {
    this.warnings.push({ code, path: typeof path === 'string' ? path : pointer(path), message });
  }
}
