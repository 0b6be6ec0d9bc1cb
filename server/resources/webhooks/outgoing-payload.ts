// What an outgoing webhook call carries and how its answer is read, per interface, as the public
// server's zerver/lib/outgoing_webhook.py: interface 1 (its own) posts JSON {data, message,
// bot_email, bot_full_name, token, trigger} and reads `content` (or the older `response_string`)
// unless `response_not_required`; interface 2 (Slack-compatible) posts Slack's form fields and
// reads `text`. The bot's service token is sent, never its API key.
import { ZULIP_VERSION } from '../../config';
import type { RealmContext } from '../../realm/context';
import type { UserRow } from '../users/users-store';
import { toViewer } from '../users/users-store';
import { MessageViewBuilder, type MessageRow } from '../messages/messages-store';
import { SLACK_INTERFACE, type WebhookTrigger } from './outgoing-queue';

export interface WebhookRequest {
  headers: Record<string, string>;
  body: string;
}

const USER_AGENT = `ZulipOutgoingWebhook/${ZULIP_VERSION}`;

/**
 * The message as the public server sends it to a bot: its raw Markdown in `content` (and the HTML
 * in `rendered_content`), avatars always filled in, the empty topic by its real name.
 */
function messageForBot(ctx: RealmContext, bot: UserRow, message: MessageRow) {
  return new MessageViewBuilder(ctx).one(toViewer(bot), message, {
    applyMarkdown: false,
    clientExtavatar: false,
    allowEmptyTopicName: true,
  });
}

export function buildWebhookRequest(
  ctx: RealmContext,
  bot: UserRow,
  service: { interface: number; token: string },
  message: MessageRow,
  trigger: WebhookTrigger,
): WebhookRequest {
  const object = messageForBot(ctx, bot, message);
  if (service.interface === SLACK_INTERFACE) {
    // Slack's legacy outgoing webhook fields, filled as the public server fills them.
    const form = new URLSearchParams([
      ['token', service.token],
      ['team_id', 'T1'],
      ['team_domain', new URL(ctx.realmUrl).host],
      ['channel_id', `C${message.channel_id}`],
      ['channel_name', String(object.display_recipient)],
      ['thread_ts', String(message.timestamp)],
      ['timestamp', String(message.timestamp)],
      ['user_id', `U${message.sender_id}`],
      ['user_name', String(object.sender_full_name)],
      ['text', message.content],
      ['trigger_word', trigger],
      ['service_id', String(bot.id)],
    ]);
    return {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT },
      body: form.toString(),
    };
  }
  return {
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify({
      data: message.content,
      message: object,
      bot_email: bot.email,
      bot_full_name: bot.full_name,
      token: service.token,
      trigger,
    }),
  };
}

/** What a 2xx answer asks for: a message to post, nothing, or an error for the bot's owner. */
export type WebhookAnswer =
  { kind: 'post'; content: string } | { kind: 'none' } | { kind: 'invalid'; error: string };

/** Python's str() of a JSON value, which the public server applies to `content`. */
function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

export function readWebhookAnswer(interfaceType: number, text: string): WebhookAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', error: 'Invalid JSON in response' };
  }
  // Bot servers before 2021 answered a JSON "" when no response was required.
  if (json === '') return { kind: 'none' };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'invalid', error: 'Invalid response format' };
  }
  const answer = json as Record<string, unknown>;
  let content: string | undefined;
  if (interfaceType === SLACK_INTERFACE) {
    if ('text' in answer) content = pythonStr(answer.text);
  } else if (answer.response_not_required) {
    return { kind: 'none' };
  } else if ('response_string' in answer) {
    content = pythonStr(answer.response_string);
  } else if ('content' in answer) {
    content = pythonStr(answer.content);
  }
  if (content === undefined || content.trim() === '') return { kind: 'none' };
  return { kind: 'post', content };
}
