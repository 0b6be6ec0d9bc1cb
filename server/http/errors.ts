// ApiError is the one way a handler reports failure: it carries the API error code, the HTTP status
// and any extra body members (var_name, queue_id, stream, ...). The error handler in router.ts turns it
// into the spec 2.1 envelope.

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: string,
    msg: string,
    status = 400,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(msg);
    this.code = code;
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }

  body(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

export const badRequest = (msg: string, extra: Record<string, unknown> = {}) =>
  new ApiError('BAD_REQUEST', msg, 400, extra);

/** 404 whose code is still BAD_REQUEST, as the API does for drafts and similar records. */
export const notFound = (msg: string) => new ApiError('BAD_REQUEST', msg, 404);

export const missingParam = (name: string) =>
  new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });

export const invalidParam = (name: string, detail?: string) =>
  new ApiError(
    'REQUEST_VARIABLE_INVALID',
    detail ? `Invalid ${name}: ${detail}` : `Invalid ${name}`,
    400,
    { var_name: name },
  );

export const invalidJsonParam = (name: string) =>
  new ApiError('INVALID_JSON', `Argument "${name}" is not valid JSON.`, 400, { var_name: name });

export const permissionDenied = (msg = 'Insufficient permission') =>
  new ApiError('BAD_REQUEST', msg, 400);

// Every 401 for missing or wrong HTTP Basic credentials invites the client to authenticate again
// (a fresh object each time: the router adds rate-limit headers to it).
const basicChallenge = () => ({ 'WWW-Authenticate': 'Basic realm="zulip"' });

export const unauthorized = () =>
  new ApiError(
    'UNAUTHORIZED',
    'Not logged in: API authentication or user session required',
    401,
    {},
    basicChallenge(),
  );

export const invalidApiKey = (msg = 'Invalid API key') =>
  new ApiError('INVALID_API_KEY', msg, 401, {}, basicChallenge());

/** Basic credentials of a deactivated user. */
export const userDeactivated = () =>
  new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401, {}, basicChallenge());

/** /fetch_api_key for a deactivated user: a password login, so no Basic challenge. */
export const loginUserDeactivated = () =>
  new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401);

export const authenticationFailed = () =>
  new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);

export const badEventQueueId = (queueId: string) =>
  new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

/** Refuses a list parameter longer than the server's cap (config.ts LIMITS), before any work. */
export function checkListCap(
  list: readonly unknown[] | undefined,
  cap: number,
  what: string,
): void {
  if (list !== undefined && list.length > cap) {
    throw badRequest(`Too many ${what} (maximum ${cap}).`);
  }
}
