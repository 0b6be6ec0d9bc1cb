// Checks a custom profile field value as the server will (server/resources/realm/profile-fields.ts
// follows the public server), so a value it would refuse is explained here and never sent.
import type { CustomProfileField } from '../../../../shared/api/types';

export const FIELD_TYPES = {
  shortText: 1,
  longText: 2,
  select: 3,
  date: 4,
  url: 5,
  users: 6,
  externalAccount: 7,
  pronouns: 8,
} as const;

/** The public server's lengths for text fields. */
const MAX_LENGTH: Record<number, number> = { 1: 50, 2: 500, 5: 2048, 7: 100, 8: 50 };

/** The options of a select field, in their order, as [key, text]. */
export function selectOptions(field: CustomProfileField): Array<[string, string]> {
  try {
    const options = JSON.parse(field.field_data) as Record<
      string,
      { text?: string; order?: string }
    >;
    return Object.entries(options)
      .sort(([, a], [, b]) => Number(a.order ?? 0) - Number(b.order ?? 0))
      .map(([key, option]) => [key, option.text ?? key]);
  } catch {
    return [];
  }
}

/** Why the value cannot be saved, or null when it can ("" clears the field). */
export function profileValueProblem(field: CustomProfileField, raw: string): string | null {
  const value = raw.trim();
  if (value === '') return null;
  const max = MAX_LENGTH[field.type];
  if (max !== undefined && [...value].length > max) {
    return `${field.name} can be at most ${max} characters.`;
  }
  switch (field.type) {
    case FIELD_TYPES.select:
      return selectOptions(field).some(([key]) => key === value)
        ? null
        : `Choose one of the options for ${field.name}.`;
    case FIELD_TYPES.date:
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : `${field.name} must be a date.`;
    case FIELD_TYPES.url:
      return /^https?:\/\/\S+$/.test(value)
        ? null
        : `${field.name} must be a link (http or https).`;
    case FIELD_TYPES.externalAccount:
      return /^[A-Za-z0-9_.-]+$/.test(value) ? null : `${field.name} must be an account name.`;
    default:
      return null;
  }
}
