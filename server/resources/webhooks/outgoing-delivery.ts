// The outgoing webhook delivery worker: calls the bots that messages triggered (rows of
// outgoing_webhook_deliveries, queued by outgoing-queue.ts) off the request path, and posts their
// answers as the bot, in the same topic or back into the direct message conversation.
//
// - Bounded: at most perBotConcurrency calls in flight to one bot and realmConcurrency in all;
//   the rest wait in the table, soonest first. A call takes at most timeoutMs and reads at most
//   maxResponseBytes of answer (outgoing-call.ts), so a slow or huge answer never stalls anything.
// - Retries: a timeout, a connection error or a 5xx is retried after each of retryDelaysMs (the
//   public server retries timeouts and connection errors three times; 5xx too here, since a bot
//   server restarting answers 502/503). Then, or at once for other failures (4xx, a malformed or
//   oversized answer, an answer that cannot be posted), the Notification Bot tells the bot's
//   owner what failed, with the public server's words; the person who triggered the bot never
//   sees an error.
// - Durable, at most once: a row is deleted in the transaction that posts the answer (or the
//   notice), so a restart re-sends only calls that had not succeeded. Shutdown aborts calls in
//   flight at once; their rows stay queued for the next start.
import type { ResourceModule } from '../module';
import type { AuthUser, RealmContext } from '../../realm/context';
import type { OutgoingWebhookOptions } from '../../config';
import { ApiError } from '../../http/errors';
import { messageNearFragment } from '../../../shared/narrow/link';
import { getChannel } from '../channels/channels-store';
import { getUserRow, toViewer, type UserRow } from '../users/users-store';
import { botConfig } from '../users/bot-events';
import { notificationBot } from '../users/system-bots';
import { directRecipientUserIds, getMessage, type MessageRow } from '../messages/messages-store';
import {
  announceCreatedMessage,
  resolveSendTarget,
  storeMessage,
  type MessageTarget,
} from '../messages/messages-send';
import type { RenderedMessage } from '../../markdown/render';
import { validateContent } from '../messages/messages-rules';
import { writeBatcher } from '../messages/messages-write-batch';
import {
  OUTGOING_WEBHOOK_BOT,
  SLACK_INTERFACE,
  setWebhookWaker,
  type WebhookTrigger,
} from './outgoing-queue';
import { buildWebhookRequest, readWebhookAnswer } from './outgoing-payload';
import { callWebhook, WebhookAgent, type CallOutcome } from './outgoing-call';

interface DeliveryRow {
  id: number;
  bot_id: number;
  message_id: number;
  trigger: WebhookTrigger;
  attempts: number;
  next_attempt_at: number;
}

/** Rows looked at per pass; more wait for the next pass (each finished call starts one). */
const PASS_ROWS = 200;
/** The part of an answer quoted to the bot's owner. */
const QUOTED_ANSWER_CHARS = 1000;
/** setTimeout holds at most ~24.8 days; longer waits are re-checked. */
const MAX_WAIT_MS = 60 * 60 * 1000;

class DeliveryWorker {
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly agent = new WebhookAgent();
  private readonly inFlight = new Set<number>();
  private readonly perBot = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private passQueued = false;
  /** Calls still running (aborted ones settle right after stop). */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly ctx: RealmContext,
    private readonly options: OutgoingWebhookOptions,
  ) {}

  /** A pass over the due rows soon, outside the caller's turn (a send never waits for it). */
  wake(): void {
    if (this.stopped || this.passQueued) return;
    this.passQueued = true;
    setImmediate(() => {
      this.passQueued = false;
      this.pass();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort();
    this.agent.destroy();
  }

  /** Resolves once every call has settled (tests and benches wait for quiet). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private pass(): void {
    if (this.stopped) return;
    const now = Date.now();
    if (this.inFlight.size < this.options.realmConcurrency) {
      // Rows of bots with all their calls in flight are not even read: a slow bot's backlog
      // costs nothing per pass.
      const busyBots = [...this.perBot]
        .filter(([, calls]) => calls >= this.options.perBotConcurrency)
        .map(([botId]) => botId);
      const due = this.ctx.db
        .prepare<[number, string, number], DeliveryRow>(
          `SELECT * FROM outgoing_webhook_deliveries
           WHERE next_attempt_at <= ? AND bot_id NOT IN (SELECT value FROM json_each(?))
           ORDER BY next_attempt_at, id LIMIT ?`,
        )
        .all(now, JSON.stringify(busyBots), PASS_ROWS + this.inFlight.size);
      for (const row of due) {
        if (this.inFlight.size >= this.options.realmConcurrency) break;
        if (this.inFlight.has(row.id)) continue;
        if ((this.perBot.get(row.bot_id) ?? 0) >= this.options.perBotConcurrency) continue;
        this.launch(row);
      }
    }
    this.armTimer(now);
  }

  /** Wakes the worker when the soonest retry falls due. */
  private armTimer(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.ctx.db
      .prepare<[number], { next: number | null }>(
        'SELECT MIN(next_attempt_at) AS next FROM outgoing_webhook_deliveries WHERE next_attempt_at > ?',
      )
      .get(now)?.next;
    if (next === null || next === undefined) return;
    this.timer = setTimeout(() => this.pass(), Math.min(next - now, MAX_WAIT_MS));
  }

  private launch(row: DeliveryRow): void {
    this.inFlight.add(row.id);
    this.perBot.set(row.bot_id, (this.perBot.get(row.bot_id) ?? 0) + 1);
    const run = this.deliver(row)
      .catch((error) => {
        if (this.stopped) return;
        // Not a failure of the bot's (a bug, a full disk): dropped, so it cannot come back at
        // every pass.
        console.error('outgoing webhook delivery failed', error);
        try {
          this.ctx.db.prepare('DELETE FROM outgoing_webhook_deliveries WHERE id = ?').run(row.id);
        } catch {
          // the database is gone; nothing is owed any more
        }
      })
      .finally(() => {
        this.inFlight.delete(row.id);
        const left = (this.perBot.get(row.bot_id) ?? 1) - 1;
        if (left > 0) this.perBot.set(row.bot_id, left);
        else this.perBot.delete(row.bot_id);
        this.running.delete(run);
        this.wake();
      });
    this.running.add(run);
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    const { ctx } = this;
    const bot = getUserRow(ctx.db, row.bot_id);
    const message = getMessage(ctx.db, row.message_id);
    const service = bot ? botConfig(ctx.db, bot.id) : null;
    // A bot deactivated or changed since, or a message deleted since, is owed nothing.
    if (
      !bot ||
      bot.is_active !== 1 ||
      bot.bot_type !== OUTGOING_WEBHOOK_BOT ||
      !message ||
      !service?.base_url
    ) {
      await this.finish(row, null);
      return;
    }
    const interfaceType = service.interface ?? 1;
    // A direct message queued while the bot used interface 1, whose owner switched it to Slack's
    // since: Slack's interface has no form for direct messages, and the public server does not
    // call Slack bots for them, so the row is finished without a call.
    if (message.type === 'private' && interfaceType === SLACK_INTERFACE) {
      await this.finish(row, null);
      return;
    }
    const request = buildWebhookRequest(
      ctx,
      bot,
      { interface: interfaceType, token: service.token ?? '' },
      message,
      row.trigger,
    );
    const outcome = await callWebhook(
      this.agent,
      service.base_url,
      request,
      this.options,
      this.abort.signal,
    );
    // Shutting down: the database may be closed; the row stays for the next start.
    if (this.stopped || outcome.kind === 'aborted') return;
    if (this.shouldRetry(outcome, row)) {
      const delay = this.options.retryDelaysMs[row.attempts];
      ctx.db
        .prepare(
          'UPDATE outgoing_webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?',
        )
        .run(Date.now() + delay, row.id);
      return;
    }
    if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
      const answer = readWebhookAnswer(interfaceType, outcome.text);
      if (answer.kind === 'none') return this.finish(row, null);
      if (answer.kind === 'invalid') {
        console.warn(`outgoing webhook of bot ${bot.id}: ${answer.error}`);
        return this.finish(
          row,
          failureNotice(ctx, bot, message, postFailure(answer.error), outcome.text),
        );
      }
      try {
        const content = validateContent(answer.content);
        const { target, rendered } = this.answerTarget(bot, message, content);
        await this.finish(row, {
          sender: toViewer(bot),
          target,
          content,
          rendered,
          client: 'OutgoingWebhookResponse',
        });
      } catch (error) {
        if (!(error instanceof ApiError) || this.stopped) throw error;
        await this.finish(
          row,
          failureNotice(ctx, bot, message, postFailure(error.message), outcome.text),
        );
      }
      return;
    }
    const answered = outcome.kind === 'answered' ? outcome.text : undefined;
    await this.finish(
      row,
      failureNotice(ctx, bot, message, describeFailure(outcome, this.options), answered),
    );
  }

  private shouldRetry(outcome: CallOutcome, row: DeliveryRow): boolean {
    if (row.attempts >= this.options.retryDelaysMs.length) return false;
    return (
      outcome.kind === 'timeout' ||
      outcome.kind === 'connection' ||
      (outcome.kind === 'answered' && outcome.status >= 500)
    );
  }

  /**
   * Where the bot answers, the message's topic or its direct message conversation, checked and
   * rendered by the send path's own checks as the bot (posting rights, topic rules, wildcard
   * mentions, active recipients); a refusal is an ApiError, told to the owner.
   */
  private answerTarget(
    bot: UserRow,
    message: MessageRow,
    content: string,
  ): { target: MessageTarget; rendered: RenderedMessage } {
    const { db } = this.ctx;
    const sender = toViewer(bot);
    if (message.type === 'private') {
      const others = directRecipientUserIds(db, message.recipient_id).filter((id) => id !== bot.id);
      return resolveSendTarget(this.ctx, sender, {
        type: 'direct',
        to: others.length > 0 ? others : [bot.id],
        topic: undefined,
        content,
      });
    }
    return resolveSendTarget(this.ctx, sender, {
      type: 'stream',
      to: message.channel_id!,
      topic: message.topic,
      content,
    });
  }

  /** Deletes the row and posts the answer or notice with it, in one transaction. */
  private async finish(row: DeliveryRow, post: OutgoingPost | null): Promise<void> {
    const { ctx } = this;
    const created = await writeBatcher(ctx).run(() => {
      ctx.db.prepare('DELETE FROM outgoing_webhook_deliveries WHERE id = ?').run(row.id);
      if (!post) return null;
      return storeMessage(ctx, post.sender, post.target, post.content, {
        client: post.client,
        readBySender: false,
        rendered: post.rendered,
      });
    });
    if (created && !this.stopped) announceCreatedMessage(ctx, created);
  }
}

/** A message the worker posts: the bot's answer, or the Notification Bot's notice. */
interface OutgoingPost {
  sender: AuthUser;
  target: MessageTarget;
  content: string;
  /** The content as the send path's checks rendered it. */
  rendered?: RenderedMessage;
  client: string;
}

function postFailure(error: string): string {
  return (
    'The outgoing webhook server attempted to send a message in Zulip, but that request ' +
    `resulted in the following error:\n> ${error}`
  );
}

function describeFailure(outcome: CallOutcome, options: OutgoingWebhookOptions): string {
  switch (outcome.kind) {
    case 'timeout':
      return `Request timed out after ${options.timeoutMs / 1000} seconds.`;
    case 'connection':
      return 'A connection error occurred. Is my bot server down?';
    case 'too_large':
      return `The response was larger than ${options.maxResponseBytes} bytes and was not read.`;
    case 'answered':
      return `The webhook got a response with status code *${outcome.status}*.`;
    case 'error':
      return (
        'When trying to send a request to the webhook service, an exception ' +
        `of type ${outcome.error.name} occurred:\n\`\`\`\n${outcome.error.message}\n\`\`\``
      );
    default:
      return '';
  }
}

/** The Notification Bot's direct message to the bot's owner, in the public server's words. */
function failureNotice(
  ctx: RealmContext,
  bot: UserRow,
  message: MessageRow,
  detail: string,
  answer?: string,
): OutgoingPost | null {
  const owner = bot.bot_owner_id !== null ? getUserRow(ctx.db, bot.bot_owner_id) : undefined;
  if (!owner || owner.is_active !== 1) return null;
  const link = `${ctx.realmUrl}/${messageLink(ctx, message, owner.id)}`;
  let content = `[A message](${link}) to your bot @_**${bot.full_name}** triggered an outgoing webhook.\n${detail}`;
  const quoted = answer === undefined ? '' : answer.slice(0, QUOTED_ANSWER_CHARS);
  if (quoted !== '') {
    content += `\nThe response contains the following payload:\n\`\`\`\n${quoted}\n\`\`\``;
  }
  return {
    sender: notificationBot(ctx.db),
    target: { kind: 'direct', userIds: [owner.id] },
    content,
    client: 'Internal',
  };
}

function messageLink(ctx: RealmContext, message: MessageRow, selfId: number): string {
  if (message.type === 'private') {
    const ids = directRecipientUserIds(ctx.db, message.recipient_id);
    return messageNearFragment(
      { type: 'private', id: message.id, display_recipient: ids.map((id) => ({ id })) },
      selfId,
    );
  }
  return messageNearFragment(
    {
      type: 'stream',
      id: message.id,
      stream_id: message.channel_id!,
      display_recipient: getChannel(ctx.db, message.channel_id!)?.name ?? '',
      subject: message.topic,
    },
    selfId,
  );
}

const workers = new WeakMap<RealmContext, DeliveryWorker>();

/** Resolves once no outgoing webhook call is in flight (tests, benches). */
export function outgoingWebhooksIdle(ctx: RealmContext): Promise<void> {
  return workers.get(ctx)?.idle() ?? Promise.resolve();
}

export const outgoingWebhooksResource: ResourceModule = {
  name: 'outgoing-webhooks',
  routes() {},
  // Started by createRealmServer once it listens (server/app.ts runs every module's start);
  // close() calls the stop function, which aborts calls in flight without waiting for them.
  start(ctx) {
    const worker = new DeliveryWorker(ctx, ctx.config.outgoingWebhooks);
    workers.set(ctx, worker);
    setWebhookWaker(ctx, () => worker.wake());
    worker.wake();
    return () => {
      setWebhookWaker(ctx, null);
      worker.stop();
    };
  },
};
