// The demo realm's conversation history: a few hundred channel messages over public, private and
// announcement channels in several topics, direct and group direct messages, reactions, a resolved
// topic, an edited message, and unread messages for the demo owner. Deterministic: a fixed-seed
// generator picks senders and texts, and timestamps are spread over the two weeks before `now`.
import type { AuthUser } from '../realm/context';
import { checkEmoji } from '../realm/emoji';
import { MessageFlag } from '../db/flags';
import { getChannel } from '../resources/channels/channels-store';
import { createMessage, type MessageTarget } from '../resources/messages/messages-send';
import { editMessage } from '../resources/messages/messages-edit';
import { getMessage } from '../resources/messages/messages-store';
import { databaseLookup } from '../markdown/lookup';
import { renderMessage, type RenderedMessage } from '../markdown/render';
import type { DemoSeedContext, DemoUser } from './demo';

/** mulberry32: small, fast and deterministic. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS: Record<string, string[]> = {
  general: ['welcome', 'lunch plans', 'release 1.2', 'office wifi', 'deploy checklist'],
  design: ['logo refresh', 'dark mode', 'onboarding flow'],
  random: ['weekend', 'music', 'coffee'],
  leadership: ['budget 2027', 'hiring'],
  announcements: ['company news'],
};

const LINES = [
  'Sounds good to me.',
  'I can take a look this afternoon.',
  'Has anyone tried the new build yet?',
  'Here is the link: https://example.com/notes',
  'Let us sync tomorrow morning.',
  'I pushed a fix, `npm test` is green again.',
  '> quoting the spec: topics are cheap\nso let us use more of them.',
  'Two options:\n- ship it on Friday\n- wait for the review',
  'Thanks, **great work** everyone!',
  'Could you review my draft when you have a minute?',
  'Agreed. *Small steps* are easier to review.',
  '```ts\nconst answer = 42;\n```',
  'The meeting moved to 3 pm.',
  'Lunch at the usual place?',
  'I will write the summary and post it here.',
  'That looks much better than the previous version :+1:',
  'Found the root cause: a missing index.',
  'Who owns the release notes this time?',
  'Reminder: the office is closed on Monday.',
  'I like the second mockup best.',
];

const REACTIONS = ['+1', 'tada', 'heart', 'smile', 'eyes', 'rocket'];

function asAuthUser(user: DemoUser): AuthUser {
  return {
    id: user.user_id,
    email: user.email,
    delivery_email: user.email,
    full_name: user.full_name,
    role: user.role,
    is_active: true,
    is_bot: user.is_bot,
    bot_type: user.bot_type,
    bot_owner_id: user.bot_owner_id,
    can_create_users: false,
  };
}

/**
 * The seed's ~360 messages are ~140 distinct texts per author (a fixed set of lines), and their
 * rendering was half the seed's cost on a first launch. A rendering depends only on the text,
 * the author (what they may see, their emoticon setting) and the realm's names, so each pair is
 * rendered once, as createMessage would, and the result reused: the HTML is the same byte for
 * byte (test/server/seed-demo.test.ts renders each stored message afresh to check).
 */
function renderOncePerAuthorAndText(
  seed: DemoSeedContext,
): (author: DemoUser, content: string) => RenderedMessage {
  const rendered = new Map<string, RenderedMessage>();
  return (author, content) => {
    const key = `${author.user_id}\n${content}`;
    let result = rendered.get(key);
    if (!result) {
      result = renderMessage(content, databaseLookup(seed.ctx.db, asAuthUser(author)));
      rendered.set(key, result);
    }
    return result;
  };
}

export async function seedDemoMessages(seed: DemoSeedContext): Promise<void> {
  const { ctx, users, channels, now } = seed;
  const { db } = ctx;
  const random = generator(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const people = ['owner', 'admin', 'moderator', 'dev', 'emma', 'farid'].map((k) => users[k]);
  const byId = new Map(Object.values(users).map((u) => [u.user_id, u]));

  const subscribersOf = (channelId: number): DemoUser[] =>
    db
      .prepare<[number], { user_id: number }>(
        'SELECT user_id FROM subscriptions WHERE channel_id = ? AND active = 1 ORDER BY user_id',
      )
      .all(channelId)
      .map((r) => byId.get(r.user_id))
      .filter((u): u is DemoUser => u !== undefined && !u.is_bot);

  // Plan every message first, then send them in timestamp order.
  interface Planned {
    sender: DemoUser;
    target: MessageTarget;
    content: string;
  }
  const planned: Planned[] = [];
  const channelCounts: Record<string, number> = {
    general: 120,
    design: 60,
    random: 50,
    leadership: 30,
    announcements: 8,
  };
  for (const [name, count] of Object.entries(channelCounts)) {
    const channel = getChannel(db, channels[name])!;
    const senders =
      name === 'announcements' ? [users.owner, users.admin] : subscribersOf(channel.id);
    for (let i = 0; i < count; i++) {
      const sender = pick(senders);
      let content = pick(LINES);
      const roll = random();
      if (roll < 0.08) content = `@**${pick(people).full_name}** ${content}`;
      else if (roll < 0.1 && name !== 'announcements') content = `/me ${content.toLowerCase()}`;
      planned.push({
        sender,
        target: { kind: 'channel', channel, topic: pick(TOPICS[name]) },
        content,
      });
    }
  }
  const dmPairs: Array<[DemoUser, DemoUser]> = [
    [users.dev, users.owner],
    [users.emma, users.owner],
    [users.farid, users.dev],
    [users.guest, users.owner],
    [users.admin, users.moderator],
  ];
  for (let i = 0; i < 40; i++) {
    const [a, b] = pick(dmPairs);
    const [sender, other] = random() < 0.5 ? [a, b] : [b, a];
    planned.push({
      sender,
      target: { kind: 'direct', userIds: [other.user_id] },
      content: pick(LINES),
    });
  }
  const group = [users.owner, users.dev, users.emma];
  for (let i = 0; i < 15; i++) {
    const sender = pick(group);
    planned.push({
      sender,
      target: {
        kind: 'direct',
        userIds: group.filter((u) => u !== sender).map((u) => u.user_id),
      },
      content: pick(LINES),
    });
  }
  // Shuffle deterministically so conversations interleave, as real history does.
  for (let i = planned.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [planned[i], planned[j]] = [planned[j], planned[i]];
  }

  const start = now - 14 * 86400;
  const step = Math.floor((14 * 86400 - 3600) / planned.length);
  const ids: number[] = [];
  const render = renderOncePerAuthorAndText(seed);
  // One transaction for the whole history: seeding is a single atomic step and much faster.
  db.transaction(() =>
    planned.forEach((message, index) => {
      const created = createMessage(
        ctx,
        asAuthUser(message.sender),
        message.target,
        message.content,
        {
          client: 'website',
          readBySender: true,
          timestamp: start + index * step,
          rendered: render(message.sender, message.content),
        },
      );
      ids.push(created.row.id);
    }),
  )();

  // Everything is read except the newest stretch, so the owner (and others) open to some unreads.
  const unreadFrom = ids[ids.length - 30];
  db.prepare(
    `UPDATE user_messages SET flags = flags | ${MessageFlag.read} WHERE message_id < ?`,
  ).run(unreadFrom);

  // Reactions on about one message in five.
  const insertReaction = db.prepare(
    `INSERT OR IGNORE INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type, created_at)
     VALUES (?, ?, ?, ?, 'unicode_emoji', ?)`,
  );
  const holders = db.prepare<[number], { user_id: number }>(
    'SELECT user_id FROM user_messages WHERE message_id = ? ORDER BY user_id',
  );
  let stamp = 1;
  for (const id of ids) {
    if (random() >= 0.2) continue;
    const candidates = holders
      .all(id)
      .map((r) => r.user_id)
      .filter((uid) => !byId.get(uid)?.is_bot);
    const reactors = Math.min(candidates.length, 1 + Math.floor(random() * 3));
    for (let k = 0; k < reactors; k++) {
      const emoji = checkEmoji(pick(REACTIONS));
      if (emoji.ok)
        insertReaction.run(id, pick(candidates), emoji.emoji_name, emoji.emoji_code, stamp++);
    }
  }

  // One edited message: the owner's first channel message gains an edit history entry.
  const ownerMessage = ids
    .map((id) => getMessage(db, id)!)
    .find((m) => m.sender_id === users.owner.user_id && m.type === 'stream');
  if (ownerMessage) {
    const editedAt = ownerMessage.timestamp + 120;
    const history = [
      {
        user_id: users.owner.user_id,
        timestamp: editedAt,
        prev_content: ownerMessage.content,
        prev_rendered_content: ownerMessage.rendered_content,
      },
    ];
    const content = `${ownerMessage.content} (edited: fixed a typo)`;
    db.prepare(
      `UPDATE messages SET content = ?, rendered_content = ?, edit_history = ?, last_edit_timestamp = ?
        WHERE id = ?`,
    ).run(
      content,
      ownerMessage.rendered_content.replace(/<\/p>$/, ' (edited: fixed a typo)</p>'),
      JSON.stringify(history),
      editedAt,
      ownerMessage.id,
    );
  }

  // A resolved topic: the owner resolves "deploy checklist" in #general.
  const deploy = db
    .prepare<[number, string], { id: number }>(
      'SELECT id FROM messages WHERE channel_id = ? AND topic = ? ORDER BY id LIMIT 1',
    )
    .get(channels.general, 'deploy checklist');
  if (deploy) {
    editMessage(ctx, asAuthUser(users.owner), getMessage(db, deploy.id)!, {
      topic: '✔ deploy checklist',
      propagateMode: 'change_all',
      notifyOld: false,
      notifyNew: true,
    });
  }
}
