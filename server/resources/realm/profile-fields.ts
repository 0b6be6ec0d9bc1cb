// Custom profile fields: PATCH /users/me/profile_data (4.14) with realm_user update events.
// The fields themselves are seeded (seed/demo.ts); their list is in register (resources/users/users.ts).
import { z } from 'zod';
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { isAdmin } from '../../realm/roles';
import { parseJson } from '../../db';
import { renderShortMarkdown } from '../../realm/render-text';
import { activeUserIds } from '../users/users-store';
import type { AuthUser, RealmContext } from '../../realm/context';

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
  field_type: number;
  field_data: string;
  editable_by_user: number;
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
