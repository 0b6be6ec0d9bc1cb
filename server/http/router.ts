// ApiRouter wraps fastify so every resource declares routes the same way:
//
//   api.post('/users/me/status', { params: { status_text: p.string().optional() } },
//     ({ user, params }) => { ...; return { extra: 'fields' }; });
//
// The router authenticates (unless auth: false), applies the rate limit, parses path ids and the
// declared parameters, wraps the handler's return value in the success envelope with
// ignored_parameters_unsupported, and turns every thrown error into the error envelope.
import { Readable } from 'node:stream';
import FindMyWay from 'find-my-way';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions as FastifyRouteOptions,
} from 'fastify';
import type { AuthUser } from '../realm/context';
import { ApiError } from './errors';
import type { Authenticator } from './auth';
import type { RateLimiter } from './rate-limit';
import type { ServerTimeBudget } from './server-time-budget';
import { RequestMeter } from './request-meter';
import { RefusalHold } from './refusal-hold';
import { DirectJson, JsonBytes, objectJsonBuffer, objectJsonPieces, RawJson } from './raw-json';
import {
  collectRawParams,
  parseParams,
  parsePathId,
  type ParamSpec,
  type ParsedParams,
} from './params';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteOptions<S extends ParamSpec, A extends boolean> {
  /** Default true: HTTP Basic with email + API key. */
  auth?: A;
  params?: S;
  /** Path segments (':name' in the url) that are integer ids; parsed into `ids`. */
  ids?: readonly string[];
  /** Mount outside /api/v1 (e.g. /user_uploads/...): the url is used as given. */
  absolute?: boolean;
  /**
   * A multipart file part of this route is read up to this many bytes and one more (the rest of
   * the body is drained, never held), instead of the server's upload limit; the handler sees
   * `part.file.truncated` and answers in its own words.
   */
  maxFileBytes?: number;
  /**
   * Mounted as a Fastify route of its own instead of served from the API table (ApiRouteTable):
   * for a route that Fastify's onRoute hooks give options (the upload spool's multipart options).
   * Absolute routes and routes with maxFileBytes are mounted so too.
   */
  ownRoute?: boolean;
  /**
   * A long poll (GET /events): never refused for a spent server-time budget (a client must get
   * its events) and not charged for the time it waits; what it delivers was charged to the
   * requests that queued the events.
   */
  longPoll?: boolean;
}

export interface ApiRequest<S extends ParamSpec, A extends boolean> {
  user: A extends false ? AuthUser | null : AuthUser;
  params: ParsedParams<S>;
  ids: Record<string, number>;
  /** Raw path parameters (for string segments). */
  path: Record<string, string>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Marks waits off the event loop, which the server-time budget does not charge. */
  meter: RequestMeter;
}

/** Return an object to merge into the success envelope, or SENT if the handler replied itself. */
export type HandlerResult = Record<string, unknown> | void | typeof SENT;
export const SENT = Symbol('reply already sent');

export { DirectJson, JsonBytes, RawJson } from './raw-json';

function serializeEnvelope(
  body: Record<string, unknown>,
): string | Readable | Buffer | Record<string, unknown> {
  const values = Object.values(body);
  if (values.some((value) => value instanceof JsonBytes)) return envelopeBytes(body);
  if (values.some((value) => value instanceof DirectJson)) return objectJsonBuffer(body, textOf);
  if (!values.some((value) => value instanceof RawJson)) return body;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const text = textOf(value);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

const textOf = (value: unknown) =>
  value instanceof RawJson ? value.text : (JSON.stringify(value) as string | undefined);

/**
 * The envelope as bytes around members already encoded (JsonBytes), streamed: the pieces written
 * as the socket takes them and never copied into one buffer (5 MB of messages: 7 ms).
 */
function envelopeBytes(body: Record<string, unknown>): Readable {
  return Readable.from(objectJsonPieces(body, textOf), { objectMode: false });
}

export type Handler<S extends ParamSpec, A extends boolean> = (
  req: ApiRequest<S, A>,
) => HandlerResult | Promise<HandlerResult>;

export const API_PREFIX = '/api/v1';

/** What a route of the API table does once found: the router's own per-route work. */
interface TableRoute {
  requireAuth: boolean;
  longPoll: boolean;
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    path: Record<string, string>,
  ): Promise<FastifyReply>;
}

/** A route of the table found for a request, with its path parameters. */
export interface ApiMatch {
  route: TableRoute;
  params: Record<string, string>;
}

/** A path parameter longer than the router's maxParamLength: Fastify answered 414. */
const PARAM_TOO_LONG = Symbol('param too long');

type Found = ApiMatch | typeof PARAM_TOO_LONG | null;

/** Where apiRouteConstraint leaves what it found on Node's request, for the catch-all. */
const FOUND = Symbol('api route found');
const API_ROUTE = 'apiRoute';

const TABLE_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
const noHandler = () => undefined;

/**
 * The API's routes (all but those of their own, RouteOptions.ownRoute), found as Fastify's router
 * found them when each was a Fastify route: the same find-my-way with Fastify's default options
 * (app.ts sets none). Fastify mounts one catch-all per scope under /api/v1 and ApiRouter dispatches
 * from here. Each Fastify route (and its HEAD twin, and its copy in the multipart scope) cost a
 * context, hooks and find-my-way matchers compiled with `new Function` at every start: about
 * 150 ms of the realm process's CPU before it listened, for ~140 routes (docs/benchmarks.md, realm
 * start, sixteenth pass).
 */
export class ApiRouteTable {
  private readonly router = FindMyWay({
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    maxParamLength: 100,
    caseSensitive: true,
    allowUnsafeRegex: false,
    // useSemicolonDelimiter false, find-my-way's default as Fastify's. A URL it cannot decode is
    // not found here (no onBadUrl), and Fastify's router answers it 400 as before.
    onMaxParamLength: noHandler,
  });

  add(method: HttpMethod, url: string, route: TableRoute): void {
    this.router.on(method, url, noHandler, route);
  }

  /** The route for `method` and `url` (the raw request URL, query string and all), or null. */
  find(method: string, url: string): Found {
    // A HEAD request is answered by its GET route, as Fastify's HEAD twins were.
    const found = this.router.find(
      (method === 'HEAD' ? 'GET' : method) as FindMyWay.HTTPMethod,
      url,
    );
    if (!found) return null;
    if (!found.store) return PARAM_TOO_LONG;
    return { route: found.store as TableRoute, params: found.params as Record<string, string> };
  }
}

export class ApiRouter {
  /** Refusals answered when they may be retried (refusal-hold.ts). */
  private readonly refusals = new RefusalHold();

  /**
   * `app` takes every route; `multipartApp` (a child scope of it with @fastify/multipart, if
   * given) takes each route again for requests with a multipart body (MULTIPART_BODY).
   */
  constructor(
    readonly app: FastifyInstance,
    private readonly authenticator: Authenticator,
    private readonly rateLimiter: RateLimiter | null,
    private readonly budget: ServerTimeBudget | null = null,
    private readonly eventBytesQueued: () => number = () => 0,
    readonly multipartApp: FastifyInstance = app,
    /** The table Fastify's apiRouteConstraint (app.ts) looks every request up in. */
    private readonly table: ApiRouteTable,
  ) {
    // Fields every request has from its construction (one shape), instead of a WeakMap entry or
    // two per request on the path every poll takes.
    app.decorateRequest('earlyUser', null);
    app.decorateRequest('refusedCredentials', null);
    app.decorateRequest('earlyUserStamp', 0);
    app.decorateRequest('handlerStarted', false);
    app.decorateRequest('apiMatch', null);
    const catchAll: FastifyRouteOptions = {
      method: [...TABLE_METHODS],
      url: `${API_PREFIX}/*`,
      // Only for a request the table has a route for (apiRouteConstraint): any other meets
      // Fastify's not-found route, as it did, with its own way with bodies.
      constraints: { [API_ROUTE]: 'yes' },
      onRequest: (request: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) => {
        const match = (request.raw as { [FOUND]?: Found })[FOUND] ?? null;
        if (match === PARAM_TOO_LONG) {
          // What app.ts's frameworkErrors answered when Fastify's router found it, before the body.
          done(new ApiError('BAD_REQUEST', 'Malformed request URL', 414));
          return;
        }
        request.apiMatch = match;
        const refusal = match?.route.requireAuth
          ? this.refuseEarly(request, reply, match.route.longPoll)
          : null;
        if (refusal) this.refusals.answer(refusal, done);
        else done();
      },
      handler: async (request, reply) => {
        const match = request.apiMatch;
        if (!match) return reply.callNotFound();
        return match.route.serve(request, reply, match.params);
      },
    };
    app.route(catchAll);
    if (multipartApp !== app) {
      multipartApp.route({
        ...catchAll,
        constraints: { [API_ROUTE]: 'yes', [MULTIPART_BODY.name]: 'yes' },
      });
    }
  }

  get<S extends ParamSpec = ParamSpec, A extends boolean = true>(
    url: string,
    options: RouteOptions<S, A>,
    handler: Handler<S, A>,
  ): void {
    this.route('GET', url, options, handler);
  }

  post<S extends ParamSpec = ParamSpec, A extends boolean = true>(
    url: string,
    options: RouteOptions<S, A>,
    handler: Handler<S, A>,
  ): void {
    this.route('POST', url, options, handler);
  }

  patch<S extends ParamSpec = ParamSpec, A extends boolean = true>(
    url: string,
    options: RouteOptions<S, A>,
    handler: Handler<S, A>,
  ): void {
    this.route('PATCH', url, options, handler);
  }

  put<S extends ParamSpec = ParamSpec, A extends boolean = true>(
    url: string,
    options: RouteOptions<S, A>,
    handler: Handler<S, A>,
  ): void {
    this.route('PUT', url, options, handler);
  }

  delete<S extends ParamSpec = ParamSpec, A extends boolean = true>(
    url: string,
    options: RouteOptions<S, A>,
    handler: Handler<S, A>,
  ): void {
    this.route('DELETE', url, options, handler);
  }

  /**
   * Authenticates a request served outside this router (tus) and counts it as every API request
   * is counted: the caller and the rate-limit headers to send; or the 401 (counted against the
   * IP) or RATE_LIMIT_HIT thrown.
   */
  authenticateAndCount(request: FastifyRequest): {
    user: AuthUser;
    headers: Record<string, string>;
  } {
    const user = this.authenticate(request);
    return { user, headers: this.rateLimiter?.hit(`user:${user.id}`) ?? {} };
  }

  /** The caller, or the 401 to send; a refused request still counts against its IP's limit. */
  private authenticate(request: FastifyRequest): AuthUser {
    try {
      // Credentials were checked before the body (refuseEarly). Good ones are looked up again only
      // if a user row changed since, so a user deactivated while a large body arrived is refused.
      const early = request.earlyUser;
      if (early && request.earlyUserStamp === this.authenticator.stamp()) return early;
      // Loose: the multipart scope was made before these fields were declared, so there they are undefined.
      if (request.refusedCredentials != null) throw request.refusedCredentials;
      return this.authenticator.authenticate(request.headers.authorization);
    } catch (error) {
      if (this.rateLimiter && error instanceof ApiError) {
        Object.assign(error.headers, this.rateLimiter.hit(`ip:${request.ip}`));
      }
      throw error;
    }
  }

  /**
   * Before the body is read (fastify's onRequest): a request its user's count limit or time budget
   * would refuse is refused now, with the same answer the handler would give. Reading and parsing
   * the body first cost about 0.7 ms of the one thread per request, and a member who ignores 429s
   * sends the largest bodies back to back: bench/hostile-load's member had the server parse 25,000
   * of them in 20 s (most of its time, and most of its garbage), which every other client's
   * deliveries waited behind. Requests that would be let in are left to the handler unchanged,
   * and so are refused credentials (the error is kept for it, not looked up twice). Returns the
   * refusal to answer, or null to go on.
   */
  private refuseEarly(
    request: FastifyRequest,
    reply: FastifyReply,
    longPoll: boolean,
  ): ApiError | null {
    if (!this.rateLimiter && !this.budget) return null;
    let user: AuthUser;
    try {
      user = this.authenticator.authenticate(request.headers.authorization);
    } catch (error) {
      // Answered by the handler, after the body, as before (a body error comes first).
      request.refusedCredentials = error;
      return null;
    }
    request.earlyUser = user;
    request.earlyUserStamp = this.authenticator.stamp();
    const key = `user:${user.id}`;
    const now = Date.now();
    const budgetSpent = this.budget !== null && !longPoll && this.budget.isSpent(key, now);
    if (!budgetSpent && !this.rateLimiter?.isExhausted(key, now)) return null;
    // What the handler would do, at the same instant: count, then the budget; one of them throws.
    try {
      if (this.rateLimiter) reply.headers(this.rateLimiter.hit(key, now));
      this.budget?.check(key, now);
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    return null;
  }

  route<S extends ParamSpec, A extends boolean>(
    method: HttpMethod,
    url: string,
    options: RouteOptions<S, A>,
    handler: Handler<S, A>,
  ): void {
    const spec = (options.params ?? {}) as S;
    const requireAuth = options.auth !== false;
    const longPoll = options.longPoll === true;
    const idNames = options.ids ?? [];
    const pathNames = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const fullUrl = options.absolute ? url : API_PREFIX + url;
    const serve = async (
      request: FastifyRequest,
      reply: FastifyReply,
      path: Record<string, string>,
    ): Promise<FastifyReply> => {
      request.handlerStarted = true;
      // Public routes ignore any Authorization header: a stale key must not keep a client from
      // /fetch_api_key or /server_settings.
      const user = requireAuth ? this.authenticate(request) : null;
      if (this.rateLimiter) {
        const headers = this.rateLimiter.hit(user ? `user:${user.id}` : `ip:${request.ip}`);
        reply.headers(headers);
      }
      const budgetKey = this.budget && user && !longPoll ? `user:${user.id}` : null;
      if (budgetKey) this.budget!.check(budgetKey);
      const meter = new RequestMeter(this.eventBytesQueued);
      try {
        return await this.run(request, reply, user, meter, path, spec, idNames, pathNames, handler);
      } finally {
        if (budgetKey) this.budget!.charge(budgetKey, meter.heldMs(), meter.queuedBytes());
      }
    };
    if (!options.ownRoute && !options.absolute && options.maxFileBytes === undefined) {
      this.table.add(method, fullUrl, { requireAuth, longPoll, serve });
      return;
    }
    const definition: FastifyRouteOptions = {
      method,
      url: fullUrl,
      // Read per request by @fastify/multipart (merged into busboy's options); its typings list
      // only busboy's own options.
      ...(options.maxFileBytes !== undefined && {
        config: {
          multipartOptions: {
            limits: { fileSize: options.maxFileBytes + 1 },
            throwFileSizeLimit: false,
          } as unknown as FastifyContextConfig['multipartOptions'],
        },
      }),
      // An error passed on here is answered by the error handler, and the body is never read.
      ...(requireAuth && {
        onRequest: (request: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) => {
          const refusal = this.refuseEarly(request, reply, longPoll);
          if (refusal) this.refusals.answer(refusal, done);
          else done();
        },
      }),
      handler: (request, reply) =>
        serve(request, reply, (request.params ?? {}) as Record<string, string>),
    };
    this.app.route(definition);
    if (this.multipartApp !== this.app) {
      this.multipartApp.route({ ...definition, constraints: { [MULTIPART_BODY.name]: 'yes' } });
    }
  }

  /** Parses the parameters, runs the handler and sends its result in the envelope. */
  private async run<S extends ParamSpec, A extends boolean>(
    request: FastifyRequest,
    reply: FastifyReply,
    user: AuthUser | null,
    meter: RequestMeter,
    path: Record<string, string>,
    spec: S,
    idNames: readonly string[],
    pathNames: string[],
    handler: Handler<S, A>,
  ): Promise<FastifyReply> {
    if (typeof request.body === 'string' && request.body.length > 0) {
      // Fastify parses text/plain into a string, which carries no parameters.
      throw new ApiError('BAD_REQUEST', 'Unsupported Content-Type', 415);
    }
    const ids: Record<string, number> = {};
    for (const name of idNames) ids[name] = parsePathId(name, path[name]);
    const raw = collectRawParams(request.query, request.body);
    const { params, ignored } = parseParams(spec, raw, pathNames);
    const result = await handler({
      user: user as ApiRequest<S, A>['user'],
      params,
      ids,
      path,
      request,
      reply,
      meter,
    });
    if (result === SENT || reply.sent) return reply;
    const body: Record<string, unknown> = { result: 'success', msg: '', ...(result ?? {}) };
    if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
    const payload = serializeEnvelope(body);
    if (typeof payload === 'string' || payload instanceof Readable || Buffer.isBuffer(payload)) {
      reply.type('application/json; charset=utf-8');
    }
    // Fastify sends a buffer as it is when its ArrayBuffer is this realm's; where it is not (a
    // server started inside the renderer tests' jsdom, whose ArrayBuffer is another), it would
    // serialize it as JSON. The bytes are the answer either way.
    if (Buffer.isBuffer(payload)) reply.serializer(bytesAsTheyAre);
    return reply.code(200).send(payload);
  }
}

/**
 * Routes a request whose Content-Type names multipart to a route's copy in the scope with
 * @fastify/multipart; every other request goes to the copy without its hooks. A superset of what
 * the multipart parser takes (any mention of "multipart"), so every request that scope would parse
 * is sent there; the others find no multipart parser in either copy, as before.
 */
export const MULTIPART_BODY = {
  name: 'multipartBody',
  storage<H>() {
    const handlers = new Map<string, H>();
    return {
      get: (value: string) => handlers.get(value) ?? null,
      set: (value: string, handler: H) => void handlers.set(value, handler),
    };
  },
  // undefined (no constraint derived) is what find-my-way documents; its typings want a string.
  deriveConstraint(request: { headers: Record<string, string | string[] | undefined> }): string {
    const type = request.headers['content-type'];
    return typeof type === 'string' && /multipart/i.test(type) ? 'yes' : (undefined as never);
  },
  mustMatchWhenDerived: false,
  validate(value: unknown) {
    if (value !== 'yes') throw new Error('multipartBody is "yes" or absent');
  },
};

/**
 * The router constraint that lets a request reach ApiRouter's catch-alls only if the table has a
 * route for it (or refuses its URL as Fastify's router did); any other request finds no route and
 * goes to Fastify's not-found route as before (whose body parsing skips an unknown Content-Type).
 */
export function apiRouteConstraint(table: ApiRouteTable) {
  return {
    name: API_ROUTE,
    storage<H>() {
      let yes: H | null = null;
      return {
        get: (value: string) => (value === 'yes' ? yes : null),
        set: (_value: string, handler: H) => void (yes = handler),
      };
    },
    deriveConstraint(request: { method?: string; url?: string; [FOUND]?: Found }): string {
      const found = table.find(request.method ?? '', request.url ?? '');
      request[FOUND] = found;
      // undefined (no constraint derived) is what find-my-way documents; its typings want a string.
      return found === null ? (undefined as never) : 'yes';
    },
    mustMatchWhenDerived: false,
    validate(value: unknown) {
      if (value !== 'yes') throw new Error('apiRoute is "yes" or absent');
    },
  };
}

// Typed as a string by Fastify; it sends a Buffer from a serializer as it is (reply.js, onSend).
const bytesAsTheyAre = (payload: unknown) => payload as string;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller as refuseEarly found them, before the body; null if it did not look. */
    earlyUser: AuthUser | null;
    /** The error of credentials refuseEarly refused before the body was read; null if none. */
    refusedCredentials: unknown;
    /** Authenticator.stamp() when earlyUser was found. */
    earlyUserStamp: number;
    /**
     * Whether the route handler has begun. An error thrown before that came from reading the body
     * (busboy's "Unexpected end of multipart data" and the like), so it is the client's, not a bug.
     */
    handlerStarted: boolean;
    /** The API table's route for this request (ApiRouter's catch-all), or null if none takes it. */
    apiMatch: ApiMatch | null;
  }
}

/** Error envelope for anything thrown in a route, including fastify's own body errors. */
export function toApiError(error: unknown, request?: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const contentType = request?.headers['content-type'] ?? '';
  if (request && !request.handlerStarted && /^multipart\//i.test(contentType)) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === undefined || status < 500) {
      if (status === 413) return new ApiError('BAD_REQUEST', 'Request body too large', 413);
      return new ApiError('BAD_REQUEST', 'Malformed multipart body', 400);
    }
  }
  const err = error as { code?: string; statusCode?: number; message?: string };
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new ApiError('BAD_REQUEST', 'Request body too large', 413);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_JSON', 'Malformed JSON', 400);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('BAD_REQUEST', 'Unsupported Content-Type', 415);
  }
  if (error instanceof SyntaxError && err.statusCode === 400) {
    return new ApiError('INVALID_JSON', 'Malformed JSON', 400);
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('BAD_REQUEST', err.message || 'Bad request', err.statusCode);
  }
  return new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500);
}
