/**
 * Test helpers for the local realm server. Every server test uses these; read this first.
 *
 *   import { startTestServer } from './server';
 *
 *   const server = await startTestServer({ seed: 'demo' });   // real server, 127.0.0.1, port 0,
 *                                                              // fresh temp data folder
 *   const owner = server.client('owner');                      // API client signed in as a demo user
 *   const res = await owner.post('/users/me/status', { status_text: 'Lunch' });
 *   expect(res.status).toBe(200); expect(res.body.result).toBe('success');
 *   await server.restart();            // close and start again on the same data folder (new port)
 *   await server.close();              // stops the server and removes its data folder
 *
 * Demo user keys: owner, admin, moderator, dev, emma, farid (members), guest, helperBot (generic bot
 * owned by dev), webhookBot (outgoing webhook bot owned by emma). `server.users` holds their
 * credentials (user_id, email, api_key, password, role...) from DIR/demo-credentials.json. With
 * seed 'empty' the only user is `owner`.
 *
 * Options pass through to createRealmServer (e.g. heartbeatMs, queueIdleTimeoutMs,
 * maxFileUploadSizeMib), so tests can shorten timings without fakes. The jitter is 0 and the
 * rate limit off unless a test sets them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRealmServer, type RealmServer } from '../../server/app';
import type { RealmServerOptions } from '../../server/config';
import { credentialsPath, type SeededCredential } from '../../server/seed/credentials';
import { ApiClient } from './client';
import { copySeededRealm } from './realm-template';

export type SeededUser = SeededCredential;

export type DemoUserKey =
  'owner' | 'admin' | 'moderator' | 'dev' | 'emma' | 'farid' | 'guest' | 'helperBot' | 'webhookBot';

export interface TestServer {
  /** Base URL without /api/v1, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly dataDir: string;
  /** The running server (db, events, ctx) for assertions that need to look inside. */
  readonly server: RealmServer;
  readonly users: Record<string, SeededUser>;
  /** Each seeded user's id, by the same keys as users. */
  readonly userIds: Record<string, number>;
  /** Client authenticated as a seeded user (by key, e.g. 'owner', or by email). */
  client(who: DemoUserKey | string): ApiClient;
  /** Client with explicit credentials, or none (for unauthenticated endpoints). */
  anonymous(): ApiClient;
  restart(): Promise<void>;
  close(): Promise<void>;
}

type TestServerOptions = Partial<RealmServerOptions>;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tributary-realm-'));
  const seed = options.seed ?? 'demo';
  // A fresh folder starts as a copy of the run's seeded realm (realm-template.ts).
  if (!options.dataDir && seed !== 'large') await copySeededRealm(dataDir, seed);
  const serverOptions: RealmServerOptions = {
    heartbeatJitterMs: 0,
    rateLimit: false,
    serverTimeBudget: false,
    // Tests expect demo people who have never reported presence; demo-presence tests turn it on.
    demoPresence: false,
    ...options,
    dataDir,
    host: '127.0.0.1',
    port: 0,
    seed,
  };
  let server = await createRealmServer(serverOptions);
  const users = loadUsers(dataDir);
  const byKey = (who: string): SeededUser => {
    const user = users[who] ?? Object.values(users).find((u) => u.email === who);
    if (!user) throw new Error(`no seeded user ${who}`);
    return user;
  };
  return {
    get url() {
      return server.url;
    },
    dataDir,
    get server() {
      return server;
    },
    users,
    userIds: Object.fromEntries(Object.entries(users).map(([key, u]) => [key, u.user_id])),
    // Clients resolve the URL lazily so they keep working across restart().
    client: (who) => {
      const user = byKey(who);
      return new ApiClient(() => server.url, { email: user.email, apiKey: user.api_key });
    },
    anonymous: () => new ApiClient(() => server.url, null),
    async restart() {
      await server.close();
      server = await createRealmServer(serverOptions);
    },
    async close() {
      await server.close();
      // close() waits for in-flight requests and the upload store's work, so nothing touches the
      // folder any more.
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const DEMO_KEYS: Record<string, string> = {
  'owner@tributary.local': 'owner',
  'admin@tributary.local': 'admin',
  'moderator@tributary.local': 'moderator',
  'dev@tributary.local': 'dev',
  'emma@tributary.local': 'emma',
  'farid@tributary.local': 'farid',
  'guest@tributary.local': 'guest',
  'helper-bot@tributary.local': 'helperBot',
  'echo-bot@tributary.local': 'webhookBot',
};

function loadUsers(dataDir: string): Record<string, SeededUser> {
  const file = JSON.parse(readFileSync(credentialsPath(dataDir), 'utf8')) as {
    users: SeededUser[];
  };
  const users: Record<string, SeededUser> = {};
  for (const user of file.users) users[DEMO_KEYS[user.email] ?? user.email] = user;
  return users;
}
