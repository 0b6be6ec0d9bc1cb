// --seed large: an organization the size of a big deployment, for benchmarks and tests. At scale 1:
// 10,000 users, 1,000 channels (the owner, whom `npm start` signs in as, subscribed to 500),
// 200,000 messages and 20,000 messages unread by the owner across 2,000 topics. --large-scale F
// multiplies every count (0.01 makes a realm in well under a second for tests).
//
// Rows are written with prepared statements in a few large transactions rather than through
// storeMessage, which would take minutes: one message costs a few statement runs here. The same
// tables are written as a send writes them (messages, whose triggers fill the search index, and
// user_messages with the read and mention flags), so every endpoint reads them as usual.
//
// Who has a user_messages row: a channel's posters, the owner where subscribed, and the sender. The
// other subscribers of a channel get none, as on the public server for users who subscribed after
// the message was sent: they read the channel's history as "historical" messages. A row for every
// subscriber of every message would be tens of millions of rows and not fit the minute.
import type { Db } from '../db';
import { MessageFlag } from '../db/flags';
import type { AuthUser, RealmContext } from '../realm/context';
import { createUser } from '../realm/accounts';
import { Role } from '../realm/roles';
import { databaseLookup } from '../markdown/lookup';
import { renderMessage, type RenderedMessage } from '../markdown/render';
import { insertChannel, insertSubscriptions } from '../resources/channels/channels-store';
import { directRecipientId } from '../resources/messages/messages-store';
import { createRealmBase } from './base';
import { writeCredentials, type SeededCredential } from './credentials';
import { createDemoPerson } from './demo';
import { generator } from './demo-messages';
import {
  FIRST_NAMES,
  LAST_NAMES,
  TIMEZONES,
  channelName,
  messageText,
  topicName,
} from './large-content';

const DOMAIN = 'tributary.local';
const DAY = 86400;
/** Messages per write transaction: large, but small enough for the WAL to be checkpointed between. */
const MESSAGES_PER_TRANSACTION = 25_000;

export interface LargeRealmCounts {
  users: number;
  channels: number;
  ownerChannels: number;
  messages: number;
  unread: number;
  unreadTopics: number;
}

export function largeRealmCounts(scale: number): LargeRealmCounts {
  const count = (full: number, least: number) => Math.max(least, Math.round(full * scale));
  const channels = count(1000, 2);
  const ownerChannels = Math.min(channels, count(500, 1));
  const unreadTopics = Math.max(ownerChannels, count(2000, 1));
  return {
    users: count(10_000, 10),
    channels,
    ownerChannels,
    messages: count(200_000, 100),
    unread: Math.max(unreadTopics, count(20_000, 1)),
    unreadTopics,
  };
}

interface ChannelPlan {
  id: number;
  recipientId: number;
  posters: number[];
  topicCount: number;
  ownerSubscribed: boolean;
}

export function seedLargeRealm(ctx: RealmContext, scale: number): void {
  const { db } = ctx;
  const counts = largeRealmCounts(scale);
  const random = generator(20261124);
  const now = ctx.nowSeconds();
  createRealmBase(db, 'Tributary large', now);

  const credentials: SeededCredential[] = [];
  const userIds: number[] = [];
  db.transaction(() => {
    for (const person of [
      { key: 'owner', name: 'Olivia Owner', role: Role.owner, tz: 'Europe/Berlin' },
      { key: 'dev', name: 'Dev Member', role: Role.member, tz: 'Europe/London' },
    ]) {
      const { key: _key, ...seeded } = createDemoPerson(db, person);
      userIds.push(seeded.user_id);
      credentials.push(seeded);
    }
    for (let i = 0; i < counts.users - 2; i++) {
      const { fullName, email } = generatedPerson(i);
      const role =
        i % 500 === 1
          ? Role.administrator
          : i % 500 === 2
            ? Role.moderator
            : i % 100 === 99
              ? Role.guest
              : Role.member;
      userIds.push(
        createUser(db, {
          email,
          fullName,
          role,
          timezone: TIMEZONES[i % TIMEZONES.length],
          // Generated people sign in with their API key only: hashing 10,000 passwords would take
          // most of the minute.
          password: null,
          dateJoined: new Date((now - 400 * DAY + i * 60) * 1000).toISOString(),
        }).id,
      );
    }
  })();
  const ownerId = userIds[0];
  const others = userIds.slice(1);

  const channels = seedChannels(db, counts, random, ownerId, others, now);
  seedMessages(ctx, counts, random, channels, ownerId, others, now);
  writeCredentials(ctx.dataDir, credentials);
}

/** Person i's name and email; names are distinct for i below 10,000, then numbered. */
function generatedPerson(i: number): { fullName: string; email: string } {
  const first = i % FIRST_NAMES.length;
  const last = (Math.floor(i / FIRST_NAMES.length) + first * 7) % LAST_NAMES.length;
  const round = Math.floor(i / (FIRST_NAMES.length * LAST_NAMES.length));
  const fullName = `${FIRST_NAMES[first]} ${LAST_NAMES[last]}${round === 0 ? '' : ` ${round + 1}`}`;
  const local = `${FIRST_NAMES[first]}.${LAST_NAMES[last]}`.toLowerCase();
  return { fullName, email: `${local}.${i}@${DOMAIN}` };
}

/**
 * Channel 0 is "general", everyone's default channel; the owner subscribes to the first
 * ownerChannels; every tenth is private with shared history. Each channel has a few posters (its
 * subscribers who write) and each person joins a few more channels, popular ones more often.
 */
function seedChannels(
  db: Db,
  counts: LargeRealmCounts,
  random: () => number,
  ownerId: number,
  others: number[],
  now: number,
): ChannelPlan[] {
  const plans: ChannelPlan[] = [];
  const recipientOf = db.prepare<[number], { id: number }>(
    'SELECT id FROM recipients WHERE channel_id = ?',
  );
  const add = (userId: number, channelId: number) => insertSubscriptions(db, channelId, [userId]);
  const pickOther = () => others[Math.floor(random() * others.length)];
  db.transaction(() => {
    for (let c = 0; c < counts.channels; c++) {
      const name = c === 0 ? 'general' : channelName(c);
      const inviteOnly = c % 10 === 9;
      const id = insertChannel(db, {
        name,
        description: c === 0 ? 'Everyone is here.' : `Conversations of the ${name} group.`,
        creatorId: ownerId,
        inviteOnly,
        historyPublicToSubscribers: true,
        isDefaultStream: c === 0,
        dateCreated: now - 400 * DAY,
      });
      const ownerSubscribed = c < counts.ownerChannels;
      if (ownerSubscribed) add(ownerId, id);
      const posters = new Set<number>();
      const posterCount = 3 + Math.floor(random() * 8);
      while (posters.size < Math.min(posterCount, others.length)) posters.add(pickOther());
      for (const userId of posters) add(userId, id);
      plans.push({
        id,
        recipientId: recipientOf.get(id)!.id,
        posters: [...posters],
        topicCount: Math.max(
          Math.ceil(counts.unreadTopics / counts.ownerChannels),
          5 + Math.floor(random() * 30),
        ),
        ownerSubscribed,
      });
    }
    for (const userId of others) add(userId, plans[0].id);
    // Popular channels (low indexes) are joined more often: the square skews towards 0.
    for (const userId of others) {
      const extra = Math.floor(random() * 10);
      for (let k = 0; k < extra; k++) {
        add(userId, plans[Math.floor(random() * random() * plans.length)].id);
      }
    }
  })();
  return plans;
}

/**
 * History first (read by everyone), then the recent messages the owner has not read: the same
 * number in each of the unread topics (the first topics of the owner's channels).
 */
function seedMessages(
  ctx: RealmContext,
  counts: LargeRealmCounts,
  random: () => number,
  channels: ChannelPlan[],
  ownerId: number,
  others: number[],
  now: number,
): void {
  const { db } = ctx;
  const owner = db
    .prepare<[number], AuthUser>(
      `SELECT id, email, delivery_email, full_name, role, is_active, is_bot, bot_type,
              bot_owner_id, can_create_users FROM users WHERE id = ?`,
    )
    .get(ownerId)!;
  const lookup = databaseLookup(db, owner);
  // Texts repeat (tens of thousands of distinct ones at full size): each is rendered once.
  const renderings = new Map<string, RenderedMessage>();
  const render = (content: string): RenderedMessage => {
    let rendered = renderings.get(content);
    if (!rendered) renderings.set(content, (rendered = renderMessage(content, lookup)));
    return rendered;
  };
  const insertMessage = db.prepare(
    `INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content,
       rendered_content, client, timestamp, is_me_message, has_link, has_image, has_attachment)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'website', ?, 0, ?, 0, 0)`,
  );
  const insertUserMessage = db.prepare(
    'INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)',
  );
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const ownerName = owner.full_name;
  const ownerChannels = channels.slice(0, counts.ownerChannels);
  const dmPartners = others.slice(0, Math.min(40, others.length));
  const historyCount = counts.messages - counts.unread;
  const historyStart = now - 365 * DAY;
  const recentStart = now - 2 * DAY;

  const writeChannelMessage = (
    plan: ChannelPlan,
    topic: string,
    index: number,
    unread: boolean,
  ) => {
    const ownerSends = !unread && plan.ownerSubscribed && random() < 0.05;
    const sender = ownerSends ? ownerId : pick(plan.posters);
    const mentionsOwner = plan.ownerSubscribed && !ownerSends && random() < 0.03;
    const content = messageText(random, mentionsOwner ? ownerName : null);
    const rendered = render(content);
    const timestamp = unread
      ? recentStart + Math.floor(((index + 1) * 2 * DAY) / (counts.unread + 1))
      : historyStart + Math.floor((index * (363 * DAY)) / historyCount);
    const id = Number(
      insertMessage.run(
        sender,
        'stream',
        plan.recipientId,
        plan.id,
        topic,
        content,
        rendered.html,
        timestamp,
        rendered.hasLink ? 1 : 0,
      ).lastInsertRowid,
    );
    for (const userId of plan.posters) {
      insertUserMessage.run(userId, id, MessageFlag.read);
    }
    if (plan.ownerSubscribed) {
      let flags = unread ? 0 : MessageFlag.read;
      if (rendered.mentionedUserIds.includes(ownerId)) flags |= MessageFlag.mentioned;
      if (!unread && random() < 0.01) flags |= MessageFlag.starred;
      if (sender === ownerId) flags |= MessageFlag.read;
      insertUserMessage.run(ownerId, id, flags);
    }
  };

  const writeDirectMessage = (index: number) => {
    const partner = pick(dmPartners);
    const recipientId = directRecipientId(db, [ownerId, partner]);
    const sender = random() < 0.5 ? ownerId : partner;
    const content = messageText(random, null);
    const rendered = render(content);
    const id = Number(
      insertMessage.run(
        sender,
        'private',
        recipientId,
        null,
        '',
        content,
        rendered.html,
        historyStart + Math.floor((index * (363 * DAY)) / historyCount),
        rendered.hasLink ? 1 : 0,
      ).lastInsertRowid,
    );
    insertUserMessage.run(ownerId, id, MessageFlag.read);
    insertUserMessage.run(partner, id, MessageFlag.read);
  };

  const inTransactions = (total: number, write: (index: number) => void) => {
    for (let start = 0; start < total; start += MESSAGES_PER_TRANSACTION) {
      db.transaction(() => {
        const end = Math.min(total, start + MESSAGES_PER_TRANSACTION);
        for (let index = start; index < end; index++) write(index);
      })();
    }
  };

  inTransactions(historyCount, (index) => {
    if (random() < 0.02) {
      writeDirectMessage(index);
      return;
    }
    // Half the traffic goes to the owner's channels, so their topics have history too.
    const plan =
      random() < 0.5 ? pick(ownerChannels) : channels[Math.floor(random() * channels.length)];
    const topic = topicName(Math.floor(random() * random() * plan.topicCount));
    writeChannelMessage(plan, topic, index, false);
  });

  // Unread topic t is topic floor(t / ownerChannels) of owner channel t % ownerChannels; each gets
  // the same share of the unread messages, interleaved in time.
  inTransactions(counts.unread, (index) => {
    const t = index % counts.unreadTopics;
    const plan = ownerChannels[t % ownerChannels.length];
    writeChannelMessage(plan, topicName(Math.floor(t / ownerChannels.length)), index, true);
  });
}
