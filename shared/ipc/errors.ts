// How results and errors cross the IPC boundary. Both transports carry an envelope rather than a
// thrown error, because Electron flattens rejected invokes into a message string and loses `code`.

export interface IpcErrorShape {
  /** The chat server's code (BAD_REQUEST, STREAM_DOES_NOT_EXIST, ...) or one of ours (below). */
  code: string;
  msg: string;
  status?: number | null;
  /** Field-level problems when the payload failed validation. */
  issues?: Array<{ path: string; message: string }>;
}

/** Codes minted by Tributary itself rather than by the chat server. */
export const IpcCodes = {
  invalidPayload: 'INVALID_PAYLOAD',
  unknownMethod: 'UNKNOWN_METHOD',
  forbiddenSender: 'FORBIDDEN_SENDER',
  unknownAccount: 'UNKNOWN_ACCOUNT',
  signedOut: 'SIGNED_OUT',
  fileTooLarge: 'FILE_TOO_LARGE',
  weakEncryption: 'WEAK_ENCRYPTION_REFUSED',
  unsupported: 'UNSUPPORTED',
  internal: 'INTERNAL_ERROR',
} as const;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcErrorShape };

/** What a renderer-side call rejects with: an Error that keeps the code. */
export class TributaryError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly issues: IpcErrorShape['issues'];

  constructor(shape: IpcErrorShape) {
    super(shape.msg);
    this.name = 'TributaryError';
    this.code = shape.code;
    this.status = shape.status ?? null;
    this.issues = shape.issues;
  }
}

export function unwrapResult<T>(result: IpcResult<T>): T {
  if (result && result.ok) return result.value;
  throw new TributaryError(
    result?.error ?? { code: IpcCodes.internal, msg: 'Malformed IPC response' },
  );
}
