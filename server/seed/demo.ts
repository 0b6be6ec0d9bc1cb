// --seed demo: a realm with every role, two bots, public, private and announcement channels with
// subscriptions, then the message engineer's seedDemoMessages (seed/demo-messages.ts).
// Writes DIR/demo-credentials.json.
import type { Db } from '../db';
import type { RealmContext } from '../realm/context';
import { createUser } from '../realm/accounts';
import { Role } from '../realm/roles';
import { systemGroupId } from '../realm/permissions';
import { insertChannel, insertSubscriptions } from '../resources/channels/channels-store';
import { createRealmBase } from './base';
import { writeCredentials, type SeededCredential } from './credentials';
import { seedDemoMessages } from './demo-messages';
import { seedDemoEmoji } from './demo-emoji';
import { renderShortMarkdown } from '../realm/render-text';
import { ECHO_PLACEHOLDER_URL } from '../demo/echo-bot';

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
  for (const person of PEOPLE) users[person.key] = createDemoPerson(db, person);
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
          ? { base_url: ECHO_PLACEHOLDER_URL, interface: 1, token: 'demo-webhook-token' }
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

  seedProfileFields(ctx, users);
  await seedDemoMessages({ ctx, users, channels, now });
  await seedDemoEmoji(ctx, users, channels);
  writeCredentials(
    ctx.dataDir,
    Object.values(users).map(({ key: _key, ...rest }) => rest),
  );
}

export /** A person with a password: `<key>@tributary.local` / `<key>-password`. */
function createDemoPerson(
  db: Db,
  person: { key: string; name: string; role: number; tz: string },
): DemoUser {
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
  return credential(
    person.key,
    created.id,
    email,
    person.name,
    person.role,
    created.apiKey,
    password,
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

/** A few custom profile fields of different types, with values for some users. */
function seedProfileFields(ctx: RealmContext, users: Record<string, DemoUser>): void {
  const { db } = ctx;
  const fields = [
    {
      name: 'Pronouns',
      hint: 'What pronouns should people use for you?',
      type: 8,
      data: '',
      editable: true,
    },
    { name: 'Title', hint: 'Set by administrators', type: 1, data: '', editable: false },
    { name: 'About me', hint: 'A few words', type: 2, data: '', editable: true },
    {
      name: 'Team',
      hint: '',
      type: 3,
      data: JSON.stringify({
        design: { text: 'Design', order: '1' },
        eng: { text: 'Engineering', order: '2' },
      }),
      editable: true,
    },
    { name: 'Mentor', hint: '', type: 6, data: '', editable: true },
    {
      name: 'GitHub',
      hint: '',
      type: 7,
      data: JSON.stringify({ subtype: 'github' }),
      editable: true,
    },
  ];
  const ids: Record<string, number> = {};
  db.transaction(() => {
    fields.forEach((field, order) => {
      ids[field.name] = Number(
        db
          .prepare(
            `INSERT INTO custom_profile_fields (name, hint, field_type, field_data, sort_order,
               display_in_profile_summary, editable_by_user) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            field.name,
            field.hint,
            field.type,
            field.data,
            order,
            order < 2 ? 1 : 0,
            field.editable ? 1 : 0,
          ).lastInsertRowid,
      );
    });
    const value = db.prepare(
      'INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)',
    );
    value.run(users.owner.user_id, ids.Title, 'Founder', renderShortMarkdown('Founder'));
    value.run(users.owner.user_id, ids.Pronouns, 'she/her', null);
    value.run(users.dev.user_id, ids.Team, 'eng', null);
    value.run(users.dev.user_id, ids.Mentor, JSON.stringify([users.owner.user_id]), null);
    value.run(users.emma.user_id, ids.Team, 'design', null);
    value.run(
      users.emma.user_id,
      ids['About me'],
      'I draw **things**.',
      renderShortMarkdown('I draw **things**.'),
    );
    value.run(users.farid.user_id, ids.GitHub, 'farid-example', null);
  })();
}
