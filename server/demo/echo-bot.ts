// The demo Echo bot's endpoint: a small HTTP service the local server hosts itself, on its own port
// on 127.0.0.1, so mentioning the demo realm's "Echo Webhook Bot" gets an answer with no other
// process running. It is an ordinary outgoing-webhook endpoint: the delivery engine POSTs the
// public server's payload to it (interface 1 JSON, interface 2 Slack-style form) and posts back
// the `content` (or `text`) it answers, quoting what was said.
//
// Its port changes with every start, so the bots that point at the echo are moved to the new port
// when it starts: the seeded Echo bot (still on the seed's placeholder, or the discard URL earlier
// demo realms stored) and any bot still on an echo address this server gave it before (kept in its
// config as demo_echo_url). A bot whose owner gave it another URL is left alone, even a service of
// their own on localhost at the same path. The owner and administrators get the realm_bot update
// the bot admin API sends for a service change.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../db';
import { parseJson } from '../db';
import type { RealmContext } from '../realm/context';
import { getUserRow } from '../resources/users/users-store';
import { botObject, sendBotUpdate } from '../resources/users/bot-events';

/** The path the echo answers on; a bot URL with it on 127.0.0.1 follows the echo's port. */
export const ECHO_PATH = '/demo-echo';
/** What the demo seed stores before the first start gives the echo its port. */
export const ECHO_PLACEHOLDER_URL = `http://127.0.0.1:9${ECHO_PATH}`;
/** Payloads carry one message of at most 10,000 characters; anything much larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;
/** Long messages are quoted in part: the answer is about what was said, not a copy of it. */
const MAX_QUOTED_CHARS = 2000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);
/** What demo realms seeded before the echo existed stored (the discard port): moved on too. */
const EARLIER_DEMO_URL = 'http://127.0.0.1:9/echo';

interface OutgoingBotRow {
  id: number;
  bot_config: string | null;
}

interface BotConfig {
  base_url?: string;
  interface?: number;
  token?: string;
  /** The echo address this server last gave the bot: while base_url is still it, it is ours. */
  demo_echo_url?: string;
}

export interface EchoService {
  /** http://127.0.0.1:PORT/demo-echo */
  url: string;
  close(): Promise<void>;
}

/** Whether the bot points at the echo: a seeded URL, or the echo address this server gave it. */
function isEchoBot(config: BotConfig): boolean {
  const url = config.base_url;
  if (!url) return false;
  if (url === ECHO_PLACEHOLDER_URL || url === EARLIER_DEMO_URL) return true;
  return url === config.demo_echo_url && isLoopbackEchoUrl(url);
}

function isLoopbackEchoUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.pathname === ECHO_PATH
    );
  } catch {
    return false;
  }
}

function outgoingBots(db: Db): Array<{ id: number; config: BotConfig }> {
  return db
    .prepare<[], OutgoingBotRow>(
      'SELECT id, bot_config FROM users WHERE is_bot = 1 AND bot_type = 3',
    )
    .all()
    .map((row) => ({ id: row.id, config: parseJson<BotConfig>(row.bot_config, {}) }));
}

/** Outgoing bots whose endpoint is the echo (whatever port it had). */
export function echoBots(db: Db): Array<{ id: number; config: BotConfig }> {
  return outgoingBots(db).filter((bot) => isEchoBot(bot.config));
}

/** Points every echo bot at the echo's current address; returns the ids of the bots moved. */
function followEchoPort(db: Db, url: string): number[] {
  const update = db.prepare('UPDATE users SET bot_config = ? WHERE id = ?');
  const moved: number[] = [];
  db.transaction(() => {
    for (const bot of echoBots(db)) {
      if (bot.config.base_url === url) continue;
      update.run(JSON.stringify({ ...bot.config, base_url: url, demo_echo_url: url }), bot.id);
      moved.push(bot.id);
    }
  })();
  return moved;
}

/** The message text without the mentions of the bot itself (`@**Name**`, `@_**Name|id**`). */
function withoutBotMention(text: string, botName: string): string {
  const escaped = botName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .replace(new RegExp(`@_?\\*\\*${escaped}(\\|\\d+)?\\*\\*`, 'g'), '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The friendly answer: who said it, and what they said in a quote block. */
export function echoReply(sender: string, botName: string, text: string): string {
  const said = withoutBotMention(text, botName);
  if (said === '')
    return `Hi @_**${sender}**! Mention me with some words, e.g. \`@**${botName}** hello\`, and I'll say them back.`;
  const short = said.length > MAX_QUOTED_CHARS ? `${said.slice(0, MAX_QUOTED_CHARS)}…` : said;
  // Mentions in the quote are made silent: an echo must not notify anyone a second time.
  const quoted = short.replace(/@(\*\*?)/g, '@_$1');
  return `@_**${sender}** said:\n\`\`\`\`quote\n${quoted}\n\`\`\`\``;
}

interface EchoRequest {
  token: string;
  sender: string;
  botName: string;
  text: string;
  /** Interface 2 (Slack-compatible) answers in `text`, interface 1 in `content`. */
  answerKey: 'content' | 'text';
}

/** The parts of an interface-1 JSON or interface-2 form payload the echo needs, or null. */
function readPayload(body: string, contentType: string): EchoRequest | null {
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body);
    const token = form.get('token');
    const text = form.get('text');
    if (token === null || text === null) return null;
    // Slack's trigger_word is the mention that triggered the call, the bot's name between **.
    const trigger = /^@_?\*\*(.+?)(\|\d+)?\*\*$/.exec(form.get('trigger_word') ?? '');
    return {
      token,
      sender: form.get('user_name') ?? 'someone',
      botName: trigger?.[1] ?? '',
      text,
      answerKey: 'text',
    };
  }
  const payload = parseJson<Record<string, unknown> | null>(body, null);
  if (!payload || typeof payload !== 'object') return null;
  const message = (payload.message ?? {}) as Record<string, unknown>;
  if (typeof payload.token !== 'string' || typeof payload.data !== 'string') return null;
  return {
    token: payload.token,
    sender: typeof message.sender_full_name === 'string' ? message.sender_full_name : 'someone',
    botName: typeof payload.bot_full_name === 'string' ? payload.bot_full_name : '',
    text: payload.data,
    answerKey: 'content',
  };
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The body as text, or null past MAX_BODY_BYTES (the rest is read and dropped, not kept). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

async function handle(db: Db, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== ECHO_PATH)
    return reply(res, 404, { msg: 'Not Found' });
  if (req.method !== 'POST') return reply(res, 405, { msg: 'Method Not Allowed' });
  const body = await readBody(req);
  if (body === null) return reply(res, 413, { msg: 'Payload too large' });
  const payload = readPayload(body, req.headers['content-type'] ?? '');
  if (!payload) return reply(res, 400, { msg: 'Not an outgoing webhook payload' });
  // As a real bot would: answer only calls carrying the token of a bot that points here.
  if (!echoBots(db).some((bot) => bot.config.token === payload.token))
    return reply(res, 403, { msg: 'Unknown token' });
  reply(res, 200, {
    [payload.answerKey]: echoReply(payload.sender, payload.botName, payload.text),
  });
}

/**
 * Starts the echo if any outgoing bot points at it (the demo realm's does) and moves those bots to
 * its port; null when no bot uses it, so other realms get no extra listener.
 */
export async function startEchoService(ctx: RealmContext): Promise<EchoService | null> {
  const { db } = ctx;
  if (echoBots(db).length === 0) return null;
  const server: Server = createServer((req, res) => {
    handle(db, req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, { msg: 'Echo failed' });
      else res.destroy();
    });
  });
  // A stalled caller cannot hold a socket open for long.
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${ECHO_PATH}`;
  // Started after listen, so a client may already have a queue: tell the owner and administrators
  // of the new address as PATCH /bots does (none is told when nobody is connected yet).
  for (const id of followEchoPort(db, url)) {
    const bot = getUserRow(db, id);
    if (bot) sendBotUpdate(ctx, bot, { services: botObject(db, bot).services });
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
