/**
 * A replay of the public chat server: it answers over HTTP on 127.0.0.1 with the public server's own
 * recorded answers (../shared/fixtures/zulip-server, feature level 372; never copied into the repo),
 * so the real app can be driven against what a real deployment sends.
 *
 *   const replay = await startReplayServer('member');   // or 'admin'
 *   replay.url; replay.user('member');                    // site and sign-in (any API key works)
 *   replay.unanswered;                                    // calls no recording answers
 *   await replay.close();
 *
 * It serves:
 * - `POST /register`: the recorded register response of that user;
 * - `GET /events`: a long poll that stays idle (a heartbeat after `heartbeatMs`), as a quiet realm's;
 * - `GET` calls recorded in rest-fl372.json (the user's own recording first, then the other's);
 *   `GET /messages` by its narrow when recorded, else every recorded message of the narrow's channel
 *   and topic (a real server filters; the recordings hold few messages);
 * - `GET /server_settings` and `POST /users/me/presence` built from the register response (these
 *   were not recorded), and a success for DELETE of a queue;
 * - the recorded errors of errors-fl372.json for the same method, path and parameters.
 * Anything else is a 404 in the public server's error shape, and is listed in `unanswered`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { haveShared, readSharedJson, registerFixture, type RecordedCall } from './shared-fixtures';

export type ReplayRole = 'member' | 'admin';

const REGISTER_FILE: Record<ReplayRole, string> = {
  member: 'register-fl372.json',
  admin: 'register-admin-fl372.json',
};

export interface ReplayUser {
  user_id: number;
  email: string;
  full_name: string;
  api_key: string;
}

export interface ReplayServer {
  readonly url: string;
  readonly register: Record<string, unknown>;
  /** The signed-in user (the register's own user); any API key is accepted. */
  user(key?: string): ReplayUser;
  /** `METHOD /path` of requests nothing recorded answers, in order. */
  readonly unanswered: string[];
  close(): Promise<void>;
}

/** Whether the fixtures a replay needs are present (otherwise tests skip, saying why). */
export function haveReplayFixtures(): boolean {
  return ['register-fl372.json', 'register-admin-fl372.json', 'rest-fl372.json'].every((f) =>
    haveShared(`fixtures/zulip-server/${f}`),
  );
}

interface Message {
  id: number;
  stream_id?: number;
  display_recipient?: unknown;
  subject?: string;
}

interface Term {
  operator: string;
  operand: unknown;
}

export async function startReplayServer(
  role: ReplayRole,
  options: { heartbeatMs?: number } = {},
): Promise<ReplayServer> {
  const register = registerFixture(REGISTER_FILE[role]);
  const rest = readSharedJson<RecordedCall[]>('fixtures/zulip-server/rest-fl372.json');
  const errors = haveShared('fixtures/zulip-server/errors-fl372.json')
    ? readSharedJson<RecordedCall[]>('fixtures/zulip-server/errors-fl372.json')
    : [];
  const own = (call: RecordedCall) => (call.request.as ?? 'member') === role;
  // The user's own recordings answer first; the other user's fill in what only they recorded.
  const recorded = [...rest.filter(own), ...rest.filter((c) => !own(c))];
  const messages = new Map<number, Message>();
  for (const call of rest) {
    for (const m of (call.response.messages as Message[] | undefined) ?? []) messages.set(m.id, m);
  }
  const selfId = register.user_id as number;
  const self = (register.realm_users as ReplayUser[]).find((u) => u.user_id === selfId)!;
  const unanswered: string[] = [];
  const waiting = new Set<ServerResponse>();
  const heartbeatMs = options.heartbeatMs ?? 50_000;
  let eventId = Number(register.last_event_id ?? -1);

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const success = (extra: Record<string, unknown> = {}) => ({
    result: 'success',
    msg: '',
    ...extra,
  });

  function answer(req: IncomingMessage, res: ServerResponse, params: Record<string, unknown>) {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://replay').pathname.replace(/^\/api\/v1/, '');
    if (!req.headers.authorization && path !== '/server_settings') {
      return send(res, 401, {
        result: 'error',
        msg: 'Missing authorization header',
        code: 'UNAUTHORIZED',
      });
    }
    const recordedError = errors.find(
      (c) =>
        c.request.method === method &&
        c.status >= 400 &&
        c.request.path === `/api/v1${path}` &&
        sameParams(c.request.params ?? {}, params),
    );
    if (recordedError) return send(res, recordedError.status, recordedError.response);

    if (method === 'POST' && path === '/register') {
      return send(res, 200, { ...register, last_event_id: eventId });
    }
    if (method === 'GET' && path === '/events') {
      // A quiet realm: nothing happens; a heartbeat now and then keeps the poll alive.
      waiting.add(res);
      const timer = setTimeout(() => {
        waiting.delete(res);
        eventId += 1;
        send(res, 200, success({ events: [{ type: 'heartbeat', id: eventId }] }));
      }, heartbeatMs);
      res.on('close', () => {
        clearTimeout(timer);
        waiting.delete(res);
      });
      return;
    }
    if (method === 'DELETE' && path === '/events') return send(res, 200, success());
    if (method === 'GET' && path === '/server_settings') {
      return send(
        res,
        200,
        success({
          zulip_version: register.zulip_version,
          zulip_feature_level: register.zulip_feature_level,
          zulip_merge_base: register.zulip_merge_base,
          push_notifications_enabled: false,
          email_auth_enabled: true,
          require_email_format_usernames: true,
          authentication_methods: { password: true, dev: true },
          external_authentication_methods: [],
          realm_name: register.realm_name,
          realm_icon: register.realm_icon_url,
          realm_description: register.realm_description,
          realm_uri: register.realm_url,
          realm_url: register.realm_url,
          realm_web_public_access_enabled: false,
        }),
      );
    }
    if (method === 'POST' && path === '/users/me/presence') {
      return send(
        res,
        200,
        success({
          presences: register.presences ?? {},
          server_timestamp: Date.now() / 1000,
          presence_last_update_id: register.presence_last_update_id ?? -1,
        }),
      );
    }
    if (method === 'GET' && path === '/messages') return send(res, 200, messagesAnswer(params));
    if (method === 'GET') {
      const call = recorded.find(
        (c) => c.request.method === 'GET' && c.request.path === `/api/v1${path}`,
      );
      if (call) return send(res, call.status, call.response);
    }
    unanswered.push(`${method} ${path}`);
    return send(res, 404, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  }

  function messagesAnswer(params: Record<string, unknown>): Record<string, unknown> {
    const narrow = (params.narrow ?? []) as Term[];
    const exact = recorded.find(
      (c) =>
        c.request.path === '/api/v1/messages' &&
        JSON.stringify(c.request.params?.narrow ?? []) === JSON.stringify(narrow),
    );
    if (exact) return exact.response;
    const channel = narrow.find((t) => t.operator === 'channel' || t.operator === 'stream');
    const topic = narrow.find((t) => t.operator === 'topic');
    const list = [...messages.values()]
      .filter(
        (m) =>
          !channel ||
          m.stream_id === Number(channel.operand) ||
          m.display_recipient === channel.operand,
      )
      .filter((m) => !topic || m.subject?.toLowerCase() === String(topic.operand).toLowerCase())
      .sort((a, b) => a.id - b.id);
    return success({
      messages: list,
      anchor: list.at(-1)?.id ?? 0,
      found_anchor: false,
      found_oldest: true,
      found_newest: true,
      history_limited: false,
    });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const query = new URL(req.url ?? '/', 'http://replay').searchParams;
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const params: Record<string, unknown> = {};
      for (const [key, value] of [...query, ...form]) params[key] = decodeValue(value);
      answer(req, res, params);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    register,
    user: () => ({ ...self, api_key: 'replayed-key' }),
    unanswered,
    async close() {
      for (const res of waiting) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Form values as the public API reads them: JSON where it parses, the string otherwise. */
function decodeValue(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function sameParams(recorded: Record<string, unknown>, given: Record<string, unknown>): boolean {
  return Object.entries(recorded).every(
    ([key, value]) => JSON.stringify(given[key]) === JSON.stringify(value),
  );
}
