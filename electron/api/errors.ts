// Errors from the chat API, carried with the server's own code and msg so callers (and the renderer,
// through the IPC envelope) can branch on `code`. Transport failures get codes of our own.

export type ApiErrorKind =
  | 'server' // the server answered with an error body
  | 'auth' // 401: the account is signed out until the user signs in again
  | 'rate_limited' // 429 after the client gave up waiting
  | 'network' // the request never got an answer (refused, reset, DNS)
  | 'timeout' // no answer within the client timeout
  | 'aborted'; // the caller cancelled

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly code: string,
    message: string,
    readonly status: number | null = null,
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Whether the request may have reached the server without us learning the outcome. */
  get ambiguous(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || (this.status ?? 0) >= 500;
  }

  toJSON(): { code: string; msg: string; status: number | null; kind: ApiErrorKind } {
    return { code: this.code, msg: this.message, status: this.status, kind: this.kind };
  }
}
