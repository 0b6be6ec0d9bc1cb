// Custom profile fields: PATCH /users/me/profile_data (4.14) with realm_user update events, and the
// administrators' list, create, edit, reorder and delete (custom_profile_fields events). Field rules
// follow the public server: labels up to 40 characters and unique, hints up to 80, select options
// as {"<key>": {text, order}}, external accounts by subtype (a known site, or custom with a URL
// pattern), at most two fields in the profile summary.
import * as z from 'zod';
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { isAdmin } from '../../realm/roles';
import { requireAdmin } from '../../realm/permissions';
import { parseJson, type Db } from '../../db';
import type { AuthUser, RealmContext } from '../../realm/context';
import { renderShortMarkdown } from '../../realm/render-text';
import { activeUserIds } from '../users/users-store';
import { enumeratesAllIds, storeOrder } from '../../realm/ordering';

/** Field types (register custom_profile_field_types). */
export const FieldType = {
  shortText: 1,
  longText: 2,
  select: 3,
  date: 4,
  url: 5,
  user: 6,
  externalAccount: 7,
  pronouns: 8,
} as const;

interface FieldRow {
  id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  sort_order: number;
  display_in_profile_summary: number;
  required: number;
  editable_by_user: number;
}

const NAME_MAX_LENGTH = 40;
const HINT_MAX_LENGTH = 80;
const MAX_SUMMARY_FIELDS = 2;

/** External account sites with a fixed label and URL (field_data {"subtype": name}). */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; urlPattern: string }> = {
  github: { name: 'GitHub username', urlPattern: 'https://github.com/%(username)s' },
  twitter: { name: 'Twitter username', urlPattern: 'https://twitter.com/%(username)s' },
};

/** A field as register, GET /realm/profile_fields and the custom_profile_fields event give it. */
function fieldObject(row: FieldRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    type: row.field_type,
    hint: row.hint,
    field_data: row.field_data,
    order: row.sort_order,
    display_in_profile_summary: row.display_in_profile_summary === 1,
    required: row.required === 1,
    editable_by_user: row.editable_by_user === 1,
  };
}

export function listProfileFields(db: Db): Record<string, unknown>[] {
  return db
    .prepare<[], FieldRow>('SELECT * FROM custom_profile_fields ORDER BY sort_order, id')
    .all()
    .map(fieldObject);
}

function announceFields(ctx: RealmContext): void {
  ctx.events.send(activeUserIds(ctx.db), {
    type: 'custom_profile_fields',
    fields: listProfileFields(ctx.db),
  });
}

type FieldData = Record<string, unknown>;

const fieldDataSchema = z.record(
  z.string(),
  z.union([z.string(), z.record(z.string(), z.string())]),
);

function checkSelectOptions(data: FieldData): void {
  const options = Object.values(data);
  if (options.length === 0) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, option] of Object.entries(data)) {
    if (typeof option !== 'object' || option === null) {
      throw badRequest(`field_data["${key}"] is not a dict`);
    }
    const { text, order } = option as Record<string, unknown>;
    if (typeof text !== 'string' || text.trim() === '') {
      throw badRequest(`field_data["${key}"]["text"] cannot be blank.`);
    }
    if (typeof order !== 'string' || !/^\d+$/.test(order)) {
      throw badRequest(`field_data["${key}"]["order"] is not a number`);
    }
    if (texts.has(text)) throw badRequest('Field must not have duplicate choices.');
    texts.add(text);
  }
}

function checkExternalAccount(data: FieldData): void {
  const subtype = data.subtype;
  if (typeof subtype !== 'string' || subtype === '') {
    throw badRequest('Subtype must be set for external account fields.');
  }
  if (subtype === 'custom') {
    const pattern = data.url_pattern;
    if (typeof pattern !== 'string' || pattern === '') {
      throw badRequest('Custom external account must define URL pattern');
    }
    if (pattern.split('%(username)s').length !== 2 || !/^https?:\/\//.test(pattern)) {
      throw badRequest("URL pattern must contain '%(username)s'.");
    }
    return;
  }
  if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) throw badRequest('Invalid external account type');
}

const isDefaultExternal = (type: number, data: FieldData) =>
  type === FieldType.externalAccount && data.subtype !== 'custom';

interface FieldDraft {
  name: string;
  hint: string;
  type: number;
  data: FieldData;
  displayInSummary: boolean;
}

function checkField(field: FieldDraft): void {
  if (!(Object.values(FieldType) as number[]).includes(field.type)) {
    throw badRequest('Invalid field type.');
  }
  if (field.type === FieldType.select) checkSelectOptions(field.data);
  if (field.type === FieldType.externalAccount) checkExternalAccount(field.data);
  // A known site's field takes its label from the site; nothing typed is checked.
  if (!isDefaultExternal(field.type, field.data)) {
    if (field.name === '') throw badRequest('Label cannot be blank.');
    if ([...field.name].length > NAME_MAX_LENGTH) {
      throw badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
    }
    if ([...field.hint].length > HINT_MAX_LENGTH) {
      throw badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
    }
  }
  if (
    field.displayInSummary &&
    (field.type === FieldType.longText || field.type === FieldType.user)
  ) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
}

function storedFieldData(type: number, data: FieldData): string {
  return type === FieldType.select || type === FieldType.externalAccount
    ? JSON.stringify(data)
    : '';
}

function assertSummaryRoom(db: Db, exceptId: number): void {
  const { n } = db
    .prepare<[number], { n: number }>(
      'SELECT COUNT(*) AS n FROM custom_profile_fields WHERE display_in_profile_summary = 1 AND id != ?',
    )
    .get(exceptId)!;
  if (n >= MAX_SUMMARY_FIELDS) {
    throw badRequest(
      `Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`,
    );
  }
}

function assertLabelFree(db: Db, name: string, exceptId: number): void {
  if (
    db.prepare('SELECT 1 FROM custom_profile_fields WHERE name = ? AND id != ?').get(name, exceptId)
  ) {
    throw badRequest('A field with that label already exists.');
  }
}

/**
 * Users' values naming an option that is gone are deleted, as the public server does (quietly: no
 * realm_user events; clients drop values that name no option).
 */
function removeDroppedChoices(db: Db, fieldId: number, options: FieldData): void {
  const kept = Object.keys(options);
  db.prepare(
    `DELETE FROM custom_profile_field_values
      WHERE field_id = ? AND value NOT IN (SELECT value FROM json_each(?))`,
  ).run(fieldId, JSON.stringify(kept));
}

function fieldOrFail(db: Db, id: number): FieldRow {
  const row = db
    .prepare<[number], FieldRow>('SELECT * FROM custom_profile_fields WHERE id = ?')
    .get(id);
  if (!row) throw badRequest(`Field id ${id} not found.`);
  return row;
}

export const itemSchema = z.object({
  id: z.number().int(),
  value: z.union([z.string(), z.array(z.number().int()), z.null()]),
});

/** Validates a value for its field type and returns the stored string. */
function storedValue(
  field: FieldRow,
  value: string | number[],
  userExists: (id: number) => boolean,
): string {
  const fail = (why: string) => badRequest(`${field.name}: ${why}`);
  if (field.field_type === FieldType.user) {
    if (!Array.isArray(value)) throw fail('expected a list of user IDs');
    for (const id of value) if (!userExists(id)) throw fail(`invalid user ID ${id}`);
    return JSON.stringify([...new Set(value)]);
  }
  if (typeof value !== 'string') throw fail('expected a string');
  const length = [...value].length;
  switch (field.field_type) {
    case FieldType.shortText:
    case FieldType.pronouns:
      if (length > 50) throw fail('value too long (limit: 50 characters)');
      break;
    case FieldType.longText:
      if (length > 500) throw fail('value too long (limit: 500 characters)');
      break;
    case FieldType.select: {
      const options = parseJson<Record<string, unknown>>(field.field_data, {});
      if (!(value in options)) throw fail(`'${value}' is not one of the options`);
      break;
    }
    case FieldType.date:
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
        throw fail('not a date (YYYY-MM-DD)');
      }
      break;
    case FieldType.url:
      if (!/^https?:\/\/\S+$/.test(value)) throw fail('not a URL');
      break;
    case FieldType.externalAccount:
      if (!/^[A-Za-z0-9_.-]{1,100}$/.test(value)) throw fail('not a valid account name');
      break;
  }
  return value;
}

export const profileFieldsResource: ResourceModule = {
  name: 'profile-fields',
  routes(api, ctx) {
    api.get('/realm/profile_fields', {}, () => ({ custom_fields: listProfileFields(ctx.db) }));

    api.post(
      '/realm/profile_fields',
      {
        params: {
          name: p.string().default(''),
          hint: p.string().default(''),
          field_type: p.int(),
          field_data: p.json(fieldDataSchema).default({}),
          display_in_profile_summary: p.bool().default(false),
          required: p.bool().default(false),
          editable_by_user: p.bool().default(true),
        },
      },
      ({ user, params }) => {
        requireAdmin(user);
        const draft: FieldDraft = {
          name: params.name.trim(),
          hint: params.hint,
          type: params.field_type,
          data: params.field_data,
          displayInSummary: params.display_in_profile_summary,
        };
        if (draft.displayInSummary) assertSummaryRoom(ctx.db, -1);
        checkField(draft);
        if (isDefaultExternal(draft.type, draft.data)) {
          const site = DEFAULT_EXTERNAL_ACCOUNTS[draft.data.subtype as string];
          draft.name = site.name;
          draft.hint = '';
          draft.data = { subtype: draft.data.subtype };
        }
        assertLabelFree(ctx.db, draft.name, -1);
        const id = Number(
          ctx.db
            .prepare(
              `INSERT INTO custom_profile_fields (name, hint, field_type, field_data, sort_order,
                 display_in_profile_summary, required, editable_by_user)
               VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM custom_profile_fields),
                 ?, ?, ?)`,
            )
            .run(
              draft.name,
              draft.hint,
              draft.type,
              storedFieldData(draft.type, draft.data),
              draft.displayInSummary ? 1 : 0,
              params.required ? 1 : 0,
              params.editable_by_user ? 1 : 0,
            ).lastInsertRowid,
        );
        announceFields(ctx);
        return { id };
      },
    );

    api.patch(
      '/realm/profile_fields/:field_id',
      {
        ids: ['field_id'],
        params: {
          name: p.string().optional(),
          hint: p.string().optional(),
          field_data: p.json(fieldDataSchema).optional(),
          display_in_profile_summary: p.bool().optional(),
          required: p.bool().optional(),
          editable_by_user: p.bool().optional(),
        },
      },
      ({ user, ids, params }) => {
        requireAdmin(user);
        const row = fieldOrFail(ctx.db, ids.field_id);
        const oldData = parseJson<FieldData>(row.field_data, {});
        const draft: FieldDraft = {
          name: params.name?.trim() ?? row.name,
          hint: params.hint ?? row.hint,
          type: row.field_type,
          data: params.field_data ?? oldData,
          displayInSummary:
            params.display_in_profile_summary ?? row.display_in_profile_summary === 1,
        };
        if (params.display_in_profile_summary) assertSummaryRoom(ctx.db, row.id);
        if (
          isDefaultExternal(row.field_type, oldData) &&
          (draft.name !== row.name ||
            draft.hint !== row.hint ||
            JSON.stringify(draft.data) !== JSON.stringify(oldData))
        ) {
          throw badRequest('Default custom field cannot be updated.');
        }
        checkField(draft);
        assertLabelFree(ctx.db, draft.name, row.id);
        ctx.db.transaction(() => {
          ctx.db
            .prepare(
              `UPDATE custom_profile_fields SET name = ?, hint = ?, field_data = ?,
                 display_in_profile_summary = ?, required = ?, editable_by_user = ? WHERE id = ?`,
            )
            .run(
              draft.name,
              draft.hint,
              storedFieldData(row.field_type, draft.data),
              draft.displayInSummary ? 1 : 0,
              (params.required ?? row.required === 1) ? 1 : 0,
              (params.editable_by_user ?? row.editable_by_user === 1) ? 1 : 0,
              row.id,
            );
          if (row.field_type === FieldType.select) removeDroppedChoices(ctx.db, row.id, draft.data);
        })();
        announceFields(ctx);
      },
    );

    api.patch(
      '/realm/profile_fields',
      { params: { order: p.json(z.array(z.number().int())) } },
      ({ user, params }) => {
        requireAdmin(user);
        if (!enumeratesAllIds(ctx.db, 'custom_profile_fields', params.order)) {
          throw badRequest('Invalid order mapping.');
        }
        storeOrder(ctx.db, 'custom_profile_fields', params.order);
        announceFields(ctx);
      },
    );

    api.delete('/realm/profile_fields/:field_id', { ids: ['field_id'] }, ({ user, ids }) => {
      requireAdmin(user);
      const row = fieldOrFail(ctx.db, ids.field_id);
      ctx.db.transaction(() => {
        ctx.db.prepare('DELETE FROM custom_profile_field_values WHERE field_id = ?').run(row.id);
        ctx.db.prepare('DELETE FROM custom_profile_fields WHERE id = ?').run(row.id);
      })();
      announceFields(ctx);
    });

    api.patch(
      '/users/me/profile_data',
      { params: { data: p.json(z.array(itemSchema).min(1)) } },
      ({ user, params }) => updateProfileData(ctx, user, user.id, params.data),
    );
  },
};

/**
 * Sets custom profile field values of targetId (the caller's own, or anyone's for an
 * administrator: PATCH /users/{user_id}); a null or empty value removes it. Everyone hears each
 * change as a realm_user update.
 */
export function updateProfileData(
  ctx: RealmContext,
  actor: AuthUser,
  targetId: number,
  data: Array<z.infer<typeof itemSchema>>,
): void {
  const fieldById = ctx.db.prepare<[number], FieldRow>(
    'SELECT * FROM custom_profile_fields WHERE id = ?',
  );
  const userExists = (id: number) =>
    ctx.db.prepare('SELECT 1 FROM users WHERE id = ? AND is_active = 1').get(id) !== undefined;
  const changes = data.map(({ id, value }) => {
    const field = fieldById.get(id);
    if (!field) throw badRequest(`Field id ${id} not found.`);
    if (field.editable_by_user !== 1 && !isAdmin(actor.role)) {
      throw badRequest(
        'You are not allowed to change this field. Contact an administrator to update it.',
      );
    }
    if (value === null || value === '') return { field, value: null, rendered: null };
    const stored = storedValue(field, value, userExists);
    const rendered =
      field.field_type === FieldType.shortText || field.field_type === FieldType.longText
        ? renderShortMarkdown(stored)
        : null;
    return { field, value: stored, rendered };
  });
  ctx.db.transaction(() => {
    for (const { field, value, rendered } of changes) {
      if (value === null) {
        ctx.db
          .prepare('DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?')
          .run(targetId, field.id);
      } else {
        ctx.db
          .prepare(
            `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value)
             VALUES (?, ?, ?, ?)
             ON CONFLICT(user_id, field_id) DO UPDATE SET value = excluded.value,
               rendered_value = excluded.rendered_value`,
          )
          .run(targetId, field.id, value, rendered);
      }
    }
  })();
  const everyone = activeUserIds(ctx.db);
  for (const { field, value, rendered } of changes) {
    const customField: Record<string, unknown> = { id: field.id, value };
    if (rendered !== null) customField.rendered_value = rendered;
    ctx.events.send(everyone, {
      type: 'realm_user',
      op: 'update',
      person: { user_id: targetId, custom_profile_field: customField },
    });
  }
}
