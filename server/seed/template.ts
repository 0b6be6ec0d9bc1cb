// The demo realm made once per build instead of on every first launch (docs/benchmarks.md, start-up,
// eighth pass). `npm run build` has the realm process's own bundle seed a demo realm with the real
// seed (seed/demo.ts: every message rendered, the emoji drawn) into dist/server/demo-realm/. A first
// launch's realm process copies it into its empty data folder before the server opens it, and
// makes that copy its own: new API keys and webhook tokens (written to demo-credentials.json),
// and every date moved by the time since the template was seeded, so the chat reads as of today.
// The seeded passwords' markers are left to the seed's resume (seed/index.ts), which defers them
// again with fresh markers. A template is used only when the bundle that made it is the one
// running and its schema is this code's: anything else is refused and the realm is seeded as
// before (the build makes a new template whenever it makes a new bundle).
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createRealmServer } from '../app';
import { databasePath, uploadsDir } from '../db';
import { migrations } from '../db/migrations';
import { generateApiKey } from '../http/auth';
import { credentialsPath, type SeededCredential } from './credentials';
import type { GetMessagesResponse } from '../../shared/api/endpoints';
import { paramEntries } from '../../shared/api/param-entries';
import { DEFAULT_REGISTER_PARAMS, messagesParams } from '../../shared/api/register-params';
import type { RegisterResponse } from '../../shared/api/types';
import {
  ACCOUNT_SEED_FILE,
  DEMO_SEED_NOTE_FILE,
  SEEDED_PAGES,
  demoOwner,
  type AccountSeed,
  type DemoSeedNote,
} from '../../shared/demo-seed';
import {
  bundleStamp,
  madeByItsBundle,
  readTemplateStamp,
  templateStampPath,
  type DemoTemplateLocation,
  type TemplateStamp,
} from './template-stamp';

/**
 * Every column of the demo seed that holds a time (UNIX seconds), moved forward at copy. The
 * seed-demo test fails if the seed ever writes a time column missing here.
 */
export const DEMO_TIME_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['realm', 'date_created'],
  ['user_groups', 'date_created'],
  ['channels', 'date_created'],
  ['messages', 'timestamp'],
  ['messages', 'last_edit_timestamp'],
  ['messages', 'last_moved_timestamp'],
  ['user_topics', 'last_updated'],
  ['user_presence', 'last_active_time'],
  ['user_presence', 'last_connected_time'],
];

const latestSchemaVersion = () => migrations[migrations.length - 1].version;

/**
 * Seeds a demo realm into `location.dir` (replacing what was there) with a real server started
 * and closed in this process. Run by the build through the realm process's bundle.
 */
export async function makeDemoTemplate(location: DemoTemplateLocation): Promise<void> {
  const building = `${location.dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const server = await createRealmServer({ dataDir: building, port: 0, seed: 'demo' });
  const seededAt = server.db
    .prepare<[], { date_created: number }>('SELECT date_created FROM realm WHERE id = 1')
    .get()!.date_created;
  const seed = await askAsAFirstLaunchDoes(server.url, building);
  // Closing checkpoints the write-ahead log into the database file: one file to copy.
  await server.close();
  rmSync(join(uploadsDir(building), '.staging'), { recursive: true, force: true });
  const stamp: TemplateStamp = {
    schemaVersion: latestSchemaVersion(),
    seededAt,
    bundle: bundleStamp(location.bundle),
  };
  writeFileSync(templateStampPath(building), JSON.stringify(stamp, null, 2) + '\n');
  writeFileSync(join(building, ACCOUNT_SEED_FILE), JSON.stringify({ stamp, ...seed }));
  rmSync(location.dir, { recursive: true, force: true });
  renameSync(building, location.dir);
}

/**
 * The requests a first launch's window needs first (its sign-in, register and first page), asked
 * once of the template's own server: the bundle's V8 code cache, kept as this process exits,
 * then holds the functions that answer them, which the first launch's realm process would
 * otherwise compile while the window waits. What they change (an event queue, the owner's
 * presence) goes with the server's close or is moved to the launch's time at copy. The register
 * (main's own parameters) and the first page are what a first launch's cache starts from
 * (shared/demo-seed.ts); the bots' keys and webhook tokens are taken out: the copy makes its own.
 */
async function askAsAFirstLaunchDoes(
  url: string,
  dataDir: string,
): Promise<Omit<AccountSeed, 'stamp'>> {
  const credentials = JSON.parse(readFileSync(credentialsPath(dataDir), 'utf8')) as {
    users: SeededCredential[];
  };
  // The one bootstrap.ts signs in as.
  const owner = demoOwner(credentials.users)!;
  const authorization = `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`;
  const ask = <T>(path: string, params?: Record<string, unknown>, method = 'GET'): Promise<T> => {
    // As main's client encodes them (electron/api/client.ts, encodeParams).
    const form = new URLSearchParams(paramEntries(params ?? {}));
    const query = method === 'GET' && params ? `?${form}` : '';
    return fetch(`${url}/api/v1${path}${query}`, {
      method,
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'POST' ? form : undefined,
    }).then(async (response) => {
      if (!response.ok)
        throw new Error(`the template's server answered ${path} with ${response.status}`);
      return (await response.json()) as T;
    });
  };
  await ask('/server_settings');
  await ask('/users/me');
  const register = await ask<RegisterResponse>('/register', { ...DEFAULT_REGISTER_PARAMS }, 'POST');
  const pages: AccountSeed['pages'] = [];
  for (const { narrow, request } of SEEDED_PAGES) {
    const page = await ask<GetMessagesResponse>('/messages', {
      ...messagesParams(narrow, request),
    });
    pages.push({ narrow, request, page });
  }
  return {
    userId: owner.user_id,
    email: owner.email,
    register: {
      ...register,
      // Keys, and outgoing webhooks' tokens (their servers' secret): the copy's are its own.
      realm_bots: (register.realm_bots ?? []).map(({ api_key: _key, ...bot }) => ({
        ...bot,
        services: bot.services?.map((service) =>
          service.token === undefined ? service : { ...service, token: '' },
        ),
      })),
    } as RegisterResponse,
    pages,
  };
}

/** Why the template cannot be used, or null when it can. */
export function demoTemplateRefusal(location: DemoTemplateLocation): string | null {
  const stamp = readTemplateStamp(location.dir);
  if (!stamp) return 'no template';
  if (stamp.schemaVersion !== latestSchemaVersion()) return 'made for another schema';
  if (!madeByItsBundle(location)) return 'made by another build';
  return null;
}

/**
 * Makes `dataDir`'s realm a copy of the template, if the folder holds no realm yet and the
 * template may be used; whether it did. The database appears under its own name only once the
 * copy is its own (keys, tokens, dates) and its credentials are written: a process stopped
 * midway leaves no realm, and the next start copies again.
 */
export function copyDemoTemplate(
  location: DemoTemplateLocation,
  dataDir: string,
  options: {
    /** UNIX seconds the dates move to (a first launch decides it before forking). */
    nowSeconds?: number;
    /** The demo owner's key, made by the launcher so main can sign in before this copy is done. */
    ownerKey?: string;
  } = {},
): boolean {
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const target = databasePath(dataDir);
  if (existsSync(target) || demoTemplateRefusal(location) !== null) return false;
  const stamp = readTemplateStamp(location.dir)!;
  const copying = `${target}.copying`;
  try {
    cpSync(databasePath(location.dir), copying);
    cpSync(uploadsDir(location.dir), uploadsDir(dataDir), { recursive: true });
    const credentials = JSON.parse(readFileSync(credentialsPath(location.dir), 'utf8')) as {
      users: SeededCredential[];
    };
    const owner = options.ownerKey === undefined ? undefined : demoOwner(credentials.users);
    const keys = makeOwn(
      copying,
      nowSeconds - stamp.seededAt,
      owner && { userId: owner.user_id, key: options.ownerKey! },
    );
    for (const user of credentials.users) user.api_key = keys.get(user.user_id) ?? user.api_key;
    writeFileSync(credentialsPath(dataDir), JSON.stringify(credentials, null, 2) + '\n', {
      mode: 0o600,
    });
    renameSync(copying, target);
    noteSeed(location, dataDir, stamp, nowSeconds - stamp.seededAt);
    return true;
  } catch {
    // The template went away meanwhile (a build replacing it) or cannot be read: seeded instead.
    rmSync(copying, { force: true });
    return false;
  }
}

/**
 * Tells main where the template's account seed is and by how much this copy moved its dates
 * (shared/demo-seed.ts): the seed is then moved by exactly the same shift. Without a seed (a
 * template made before there was one) nothing is said, and main signs in as it always did.
 */
function noteSeed(
  location: DemoTemplateLocation,
  dataDir: string,
  stamp: TemplateStamp,
  shiftSeconds: number,
): void {
  const seedFile = join(location.dir, ACCOUNT_SEED_FILE);
  if (!existsSync(seedFile)) return;
  const note: DemoSeedNote = { seedFile, stamp, shiftSeconds };
  try {
    writeFileSync(join(dataDir, DEMO_SEED_NOTE_FILE), JSON.stringify(note) + '\n', { mode: 0o600 });
  } catch {
    // The realm is copied either way: main signs in without a seed, as before there was one.
  }
}

/**
 * New keys and tokens, dates moved by `shiftSeconds`; each user's new API key by id. The owner's
 * is the one given, when one is.
 */
function makeOwn(
  databaseFile: string,
  shiftSeconds: number,
  owner?: { userId: number; key: string },
): Map<number, string> {
  const db = new Database(databaseFile);
  const keys = new Map<number, string>();
  try {
    db.transaction(() => {
      const users = db
        .prepare<[], { id: number; bot_config: string | null }>('SELECT id, bot_config FROM users')
        .all();
      const update = db.prepare('UPDATE users SET api_key = ?, bot_config = ? WHERE id = ?');
      for (const user of users) {
        const key = user.id === owner?.userId ? owner.key : generateApiKey();
        keys.set(user.id, key);
        update.run(key, withNewToken(user.bot_config), user.id);
      }
      for (const [table, column] of DEMO_TIME_COLUMNS) {
        db.prepare(`UPDATE ${table} SET ${column} = ${column} + ? WHERE ${column} IS NOT NULL`).run(
          shiftSeconds,
        );
      }
      const edited = db
        .prepare<[], { id: number; edit_history: string }>(
          'SELECT id, edit_history FROM messages WHERE edit_history IS NOT NULL',
        )
        .all();
      const history = db.prepare('UPDATE messages SET edit_history = ? WHERE id = ?');
      for (const message of edited) {
        const entries = JSON.parse(message.edit_history) as Array<{ timestamp?: number }>;
        for (const entry of entries) {
          if (typeof entry.timestamp === 'number') entry.timestamp += shiftSeconds;
        }
        history.run(JSON.stringify(entries), message.id);
      }
    })();
  } finally {
    db.close();
  }
  return keys;
}

/** An outgoing webhook bot's config with a token of its own (the echo checks it). */
function withNewToken(botConfig: string | null): string | null {
  if (botConfig === null) return null;
  const config = JSON.parse(botConfig) as { token?: string };
  if (typeof config.token !== 'string') return botConfig;
  return JSON.stringify({ ...config, token: generateApiKey() });
}
