// --seed demo: a realm with every role, two bots, public, private and announcement channels with
// subscriptions, then the message engineer's seedDemoMessages (seed/demo-messages.ts).
// Writes DIR/demo-credentials.json.
import type { RealmContext } from '../realm/context';
import { createUser } from '../realm/accounts';
import { Role } from '../realm/roles';
import { systemGroupId } from '../realm/permissions';
import { insertChannel, insertSubscriptions } from '../resources/channels-store';
import { createRealmBase } from './base';
import { writeCredentials, type SeededCredential } from './credentials';
import { seedDemoMessages } from './demo-messages';

export interface DemoUser extends SeededCredential {
  key: string;
}

/** What seedDemoMessages receives. */
export interface DemoSeedContext {
  ctx: RealmContext;
  /** By key: owner, admin, moderator, dev, emma, farid, guest, helperBot, webhookBot. */
  users: Record<string, DemoUser>;
  /** By name: general, design, random, leadership, announcements. */
  channels: Record<string, number>;
  /** UNIX seconds at seeding; spread message timestamps before it. */
  now: number;
}

const DOMAIN = 'tributary.local';

const PEOPLE = [
  { key: 'owner', name: 'Olivia Owner', role: Role.owner, tz: 'Europe/Berlin' },
  { key: 'admin', name: 'Adam Admin', role: Role.administrator, tz: 'America/New_York' },
  { key: 'moderator', name: 'Maya Moderator', role: Role.moderator, tz: 'Asia/Kolkata' },
  { key: 'dev', name: 'Dev Member', role: Role.member, tz: 'Europe/London' },
  { key: 'emma', name: 'Emma Member', role: Role.member, tz: 'America/Los_Angeles' },
  { key: 'farid', name: 'Farid Member', role: Role.member, tz: 'Africa/Cairo' },
  { key: 'guest', name: 'Gus Guest', role: Role.guest, tz: 'Australia/Sydney' },
] as const;

export async function seedDemoRealm(ctx: RealmContext): Promise<void> {
  const { db } = ctx;
  const now = ctx.nowSeconds();
  createRealmBase(db, 'Tributary demo', now);

  const users: Record<string, DemoUser> = {};
  for (const person of PEOPLE) {
    const email = `${person.key}@${DOMAIN}`;
    const password = `${person.key}-password`;
    const created = createUser(db, {
      email,
      fullName: person.name,
      role: person.role,
      password,
      timezone: person.tz,
      canCreateUsers: person.role === Role.owner || person.role === Role.administrator,
    });
    users[person.key] = credential(
      person.key,
      created.id,
      email,
      person.name,
      person.role,
      created.apiKey,
      password,
    );
  }
  const bots = [
    {
      key: 'helperBot',
      email: `helper-bot@${DOMAIN}`,
      name: 'Helper Bot',
      type: 1,
      owner: users.dev.user_id,
    },
    {
      key: 'webhookBot',
      email: `echo-bot@${DOMAIN}`,
      name: 'Echo Webhook Bot',
      type: 3,
      owner: users.emma.user_id,
    },
  ];
  for (const bot of bots) {
    const created = createUser(db, {
      email: bot.email,
      fullName: bot.name,
      role: Role.member,
      isBot: true,
      botType: bot.type,
      botOwnerId: bot.owner,
      botConfig:
        bot.type === 3
          ? { base_url: 'http://127.0.0.1:9/echo', interface: 1, token: 'demo-webhook-token' }
          : null,
      timezone: '',
    });
    users[bot.key] = {
      ...credential(bot.key, created.id, bot.email, bot.name, Role.member, created.apiKey, null),
      is_bot: true,
      bot_type: bot.type,
      bot_owner_id: bot.owner,
    };
  }

  const everyoneHuman = PEOPLE.map((p) => users[p.key].user_id);
  const members = everyoneHuman.filter((id) => id !== users.guest.user_id);
  const staff = [users.owner.user_id, users.admin.user_id, users.moderator.user_id];
  const channelSpecs = [
    {
      name: 'general',
      description: 'Everything about **everything**.',
      subscribers: [...everyoneHuman, users.helperBot.user_id],
      isDefault: true,
    },
    {
      name: 'design',
      description: 'Mockups, reviews and the colour of the bikeshed.',
      subscribers: [
        users.owner.user_id,
        users.dev.user_id,
        users.emma.user_id,
        users.farid.user_id,
      ],
    },
    { name: 'random', description: 'Off-topic chatter.', subscribers: members },
    {
      name: 'leadership',
      description: 'Private channel for the staff.',
      subscribers: staff,
      inviteOnly: true,
      historyPublic: true,
    },
    {
      name: 'announcements',
      description: 'Only administrators post here.',
      subscribers: [...everyoneHuman],
      announcement: true,
      isDefault: true,
    },
  ];
  const channels: Record<string, number> = {};
  db.transaction(() => {
    for (const spec of channelSpecs) {
      const id = insertChannel(db, {
        name: spec.name,
        description: spec.description,
        creatorId: users.owner.user_id,
        inviteOnly: spec.inviteOnly ?? false,
        historyPublicToSubscribers: spec.historyPublic ?? true,
        isDefaultStream: spec.isDefault ?? false,
        dateCreated: now - 30 * 86400,
        groupSettings: spec.announcement
          ? { can_send_message_group: systemGroupId(db, 'role:administrators') }
          : {},
      });
      insertSubscriptions(db, id, spec.subscribers);
      channels[spec.name] = id;
    }
  })();

  await seedDemoMessages({ ctx, users, channels, now });
  writeCredentials(
    ctx.dataDir,
    Object.values(users).map(({ key: _key, ...rest }) => rest),
  );
}

function credential(
  key: string,
  userId: number,
  email: string,
  fullName: string,
  role: number,
  apiKey: string,
  password: string | null,
): DemoUser {
  return {
    key,
    user_id: userId,
    email,
    full_name: fullName,
    role,
    api_key: apiKey,
    password,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
  };
}
