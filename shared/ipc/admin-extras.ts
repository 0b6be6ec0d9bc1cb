// Settings > Organization: custom emoji, linkifiers, code playgrounds, allowed e-mail domains and
// custom profile fields. The lists themselves come with the snapshot and their events (the store
// keeps them); these are the calls that change them. The server decides who may; the schemas only
// refuse what no server would take.
import * as z from 'zod';
import type { SuccessEnvelope } from '../api/endpoints';
import { forAccount } from './common';
import { method } from './define';

const positiveId = z.number().int().positive();
/** The public server's emoji names: lowercase letters, digits, dashes, underscores (and spaces). */
const emojiName = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[0-9a-z _-]+$/, 'not an emoji name');
const domain = z.string().trim().min(1).max(253);

export const linkifierInput = z.strictObject({
  pattern: z.string().min(1).max(1000),
  urlTemplate: z.string().min(1).max(1000),
  reverseTemplate: z.string().max(1000).optional(),
  exampleInput: z.string().max(1000).optional(),
});
export type LinkifierInput = z.infer<typeof linkifierInput>;

/** A select field's options: key -> {text, order} as the server stores them. */
const selectOptions = z.record(z.string(), z.strictObject({ text: z.string(), order: z.string() }));
const externalAccount = z.strictObject({
  subtype: z.string().min(1),
  url_pattern: z.string().optional(),
});

const profileFieldChanges = {
  name: z.string().max(40).optional(),
  hint: z.string().max(80).optional(),
  fieldData: z.union([selectOptions, externalAccount]).optional(),
  displayInProfileSummary: z.boolean().optional(),
  required: z.boolean().optional(),
  editableByUser: z.boolean().optional(),
};
export const profileFieldInput = z.strictObject({
  /** 1 short text … 8 pronouns (register custom_profile_field_types). */
  type: z.number().int().min(1).max(8),
  ...profileFieldChanges,
});
export type ProfileFieldInput = z.infer<typeof profileFieldInput>;
export const profileFieldUpdate = z.strictObject(profileFieldChanges);
export type ProfileFieldUpdate = z.infer<typeof profileFieldUpdate>;

export const adminExtrasMethods = {
  /** `token`: the image handed to main with intakeFile; main sends it and forgets it. */
  addCustomEmoji: method<SuccessEnvelope>()(
    forAccount({ name: emojiName, token: z.string().min(1).max(100) }),
  ),
  deleteCustomEmoji: method<SuccessEnvelope>()(forAccount({ name: emojiName })),

  addLinkifier: method<{ id: number }>()(forAccount({ linkifier: linkifierInput })),
  updateLinkifier: method<SuccessEnvelope>()(
    forAccount({ linkifierId: positiveId, linkifier: linkifierInput }),
  ),
  deleteLinkifier: method<SuccessEnvelope>()(forAccount({ linkifierId: positiveId })),
  /** Every linkifier's id once, in the new order. */
  reorderLinkifiers: method<SuccessEnvelope>()(forAccount({ orderedIds: z.array(positiveId) })),

  addPlayground: method<{ id: number }>()(
    forAccount({
      name: z.string().min(1).max(60),
      language: z.string().min(1).max(60),
      urlTemplate: z.string().min(1).max(1000),
    }),
  ),
  deletePlayground: method<SuccessEnvelope>()(forAccount({ playgroundId: positiveId })),

  addRealmDomain: method<SuccessEnvelope>()(forAccount({ domain, allowSubdomains: z.boolean() })),
  updateRealmDomain: method<SuccessEnvelope>()(
    forAccount({ domain, allowSubdomains: z.boolean() }),
  ),
  deleteRealmDomain: method<SuccessEnvelope>()(forAccount({ domain })),

  createProfileField: method<{ id: number }>()(forAccount({ field: profileFieldInput })),
  updateProfileField: method<SuccessEnvelope>()(
    forAccount({ fieldId: positiveId, changes: profileFieldUpdate }),
  ),
  deleteProfileField: method<SuccessEnvelope>()(forAccount({ fieldId: positiveId })),
  /** Every field's id once, in the new order. */
  reorderProfileFields: method<SuccessEnvelope>()(forAccount({ orderedIds: z.array(positiveId) })),
} as const;
