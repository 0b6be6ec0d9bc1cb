// HTTP Basic authentication with the API email (or delivery email) and the API key, plus password
// hashing for /fetch_api_key. Keys are compared in constant time.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Db } from '../db';
import { tableCache, type TableCache } from '../db/table-cache';
import type { AuthUser } from '../realm/context';
import { invalidApiKey, unauthorized, userDeactivated } from './errors';

interface UserAuthRow {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  can_create_users: number;
  api_key: string;
}

export function toAuthUser(row: Omit<UserAuthRow, 'api_key'>): AuthUser {
  return {
    id: row.id,
    email: row.email,
    delivery_email: row.delivery_email,
    full_name: row.full_name,
    role: row.role,
    is_active: row.is_active === 1,
    is_bot: row.is_bot === 1,
    bot_type: row.bot_type,
    bot_owner_id: row.bot_owner_id,
    can_create_users: row.can_create_users === 1,
  };
}

/** "Basic " and the base64 of a 254-character email, a colon and a 32-character key, with room. */
const MAX_CACHED_HEADER_CHARS = 1024;

export class Authenticator {
  private readonly byEmail;
  /**
   * Authorization header -> the user it authenticated. Every request authenticates, and the
   * lookup was a visible share of a request's cost under load; the cache is emptied on any
   * change to the users table (key regenerated, deactivation, role, name), so it never answers
   * with stale credentials or a stale role. Failed attempts are not cached.
   */
  private readonly verified: TableCache<string, AuthUser>;

  constructor(db: Db) {
    this.byEmail = db.prepare<[string, string], UserAuthRow>(
      `SELECT id, email, delivery_email, full_name, role, is_active, is_bot, bot_type, bot_owner_id,
              can_create_users, api_key
         FROM users WHERE email = ? OR delivery_email = ? LIMIT 1`,
    );
    this.verified = tableCache(db, ['users'], (header) => this.verify(header));
  }

  /** Resolves the Authorization header to an active user or throws the API's 401 errors. */
  authenticate(header: string | undefined): AuthUser {
    if (!header) throw unauthorized();
    // The cache holds TABLE_CACHE_MAX_ENTRIES headers; one longer than any real email and key
    // (base64 tolerates padding and stray characters, so one account has many valid spellings) is
    // checked uncached, so the cache stays under about 10,000 x 1 KB whatever clients send.
    if (header.length > MAX_CACHED_HEADER_CHARS) return this.verify(header);
    return this.verified.get(header);
  }

  /** Changes when any user row changes: a user authenticated at the same stamp is still current. */
  stamp(): number {
    return this.verified.stamp();
  }

  private verify(header: string): AuthUser {
    const match = /^Basic\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized();
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidApiKey('Malformed API key');
    const email = decoded.slice(0, colon);
    const key = decoded.slice(colon + 1);
    const row = this.byEmail.get(email, email);
    if (!row || !sameSecret(row.api_key, key)) throw invalidApiKey();
    if (row.is_active !== 1) throw userDeactivated();
    return toAuthUser(row);
  }
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const SCRYPT_N = 16384;
const SCRYPT_R = 8;
const SCRYPT_P = 1;

// A hash takes about 50 ms of CPU (more on a loaded machine). Requests use the asynchronous forms,
// which run on libuv's thread pool, so signing in or creating a user never holds the event loop
// (bench/hostile-load saw 350 ms stalls per POST /users). The seeds defer theirs (below).
const scryptAsync = (password: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

const PARAMETERS: ScryptOptions = { N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P };

function formatHash(salt: Buffer, hash: Buffer): string {
  return `scrypt$${SCRYPT_N}$${SCRYPT_R}$${SCRYPT_P}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

interface ParsedHash {
  salt: Buffer;
  expected: Buffer;
  options: ScryptOptions;
}

function parseHash(stored: string | null): ParsedHash | null {
  if (!stored) return null;
  const [scheme, n, r, pp, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return null;
  return {
    salt: Buffer.from(saltHex, 'hex'),
    expected: Buffer.from(hashHex, 'hex'),
    options: { N: Number(n), r: Number(r), p: Number(pp) },
  };
}

export async function hashPasswordAsync(password: string): Promise<string> {
  const salt = randomBytes(16);
  return formatHash(salt, await scryptAsync(password, salt, 32, PARAMETERS));
}

/**
 * The seeds' passwords are hashed after the server listens (a first launch signs in with the demo
 * owner's API key, and seven hashes were a third of the realm's CPU before it could listen). In
 * their place the users row holds a marker, `pending$` and 32 random hex digits; the password
 * waits here, in this process, until realm/accounts.ts finishDeferredPasswordHashes stores its
 * hash (same parameters as any other) and forgets it. A sign-in that meets a marker waits for
 * that hash (made at once if not yet begun); a marker this process does not know (it stopped
 * before storing the hash) verifies nothing, like a wrong password, until the seed resumes it.
 */
const DEFERRED_PREFIX = 'pending$';
const deferred = new Map<string, { password: string; hash: Promise<string> | null }>();

export function isDeferredPasswordHash(stored: string | null): stored is string {
  return stored !== null && stored.startsWith(DEFERRED_PREFIX);
}

/** The marker to store for `password`; its hash is made by deferredPasswordHash. */
export function deferPasswordHash(password: string): string {
  const marker = `${DEFERRED_PREFIX}${randomBytes(16).toString('hex')}`;
  deferred.set(marker, { password, hash: null });
  return marker;
}

/** Whether this process holds the marker's password (it made the marker, or resumed it). */
export function holdsDeferredPassword(marker: string): boolean {
  return deferred.has(marker);
}

/** The hash of a marker's password (begun now if not yet), or null if this process lacks it. */
export function deferredPasswordHash(marker: string): Promise<string> | null {
  const entry = deferred.get(marker);
  if (!entry) return null;
  entry.hash ??= hashPasswordAsync(entry.password);
  return entry.hash;
}

/** Once its hash is stored in the marker's place: the password leaves memory. */
export function forgetDeferredPasswordHash(marker: string): void {
  deferred.delete(marker);
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // Looked up before any await: the caller read `stored` in this tick, and the marker is only
  // forgotten in the tick its hash is stored, so a known marker is never missed.
  if (isDeferredPasswordHash(stored)) {
    const hash = deferredPasswordHash(stored);
    if (!hash) return false;
    stored = await hash;
  }
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const actual = await scryptAsync(password, parsed.salt, parsed.expected.length, parsed.options);
  return timingSafeEqual(parsed.expected, actual);
}

export { generateApiKey } from './api-key.mjs';
