// A user's custom profile field values as the profile shows them: in the realm's field order, each
// with its field's name, and values of typed fields (select, users) turned into readable text.
import type { CustomProfileField, ProfileDataValue } from '../../../shared/api/types';

/** Field types whose stored value is not the text to show (register custom_profile_field_types). */
const SELECT_FIELD = 3;
const USERS_FIELD = 6;

export interface ProfileFieldRow {
  id: number;
  name: string;
  /** Plain text of the value, or HTML to sanitize when the field renders markdown. */
  text: string;
  html?: string;
}

function selectOptionText(field: CustomProfileField, value: string): string {
  try {
    const options = JSON.parse(field.field_data) as Record<string, { text?: string }>;
    return options[value]?.text ?? value;
  } catch {
    return value;
  }
}

function userListText(value: string, nameOf: (userId: number) => string): string {
  try {
    const ids = JSON.parse(value) as unknown;
    if (Array.isArray(ids)) return ids.map((id) => nameOf(Number(id))).join(', ');
  } catch {
    // Not a JSON list: show what the server stored.
  }
  return value;
}

/**
 * The rows to show: fields the realm defines come first in its order; values for a field this
 * client does not know (an event not seen yet) still show, under a neutral label.
 */
export function profileFieldRows(
  fields: readonly CustomProfileField[],
  data: Readonly<Record<string, ProfileDataValue>> | undefined,
  nameOf: (userId: number) => string,
): ProfileFieldRow[] {
  if (!data) return [];
  const rows: ProfileFieldRow[] = [];
  const known = new Set<string>();
  for (const field of fields) {
    const key = String(field.id);
    known.add(key);
    const v = data[key];
    if (!v || v.value === '' || v.value == null) continue;
    const text =
      field.type === SELECT_FIELD
        ? selectOptionText(field, v.value)
        : field.type === USERS_FIELD
          ? userListText(v.value, nameOf)
          : v.value;
    rows.push({ id: field.id, name: field.name, text, html: v.rendered_value || undefined });
  }
  for (const [key, v] of Object.entries(data)) {
    if (known.has(key) || !v?.value) continue;
    rows.push({ id: Number(key), name: 'Profile field', text: v.value });
  }
  return rows;
}
