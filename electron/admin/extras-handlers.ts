// Handlers of the admin-extras domain (shared/ipc/admin-extras.ts): custom emoji, linkifiers, code
// playgrounds, allowed domains and custom profile fields, each one chat-API call. The server
// enforces who may; its refusals reach the renderer with their own code and message.
import { adminExtrasEndpoints as api } from '../../shared/api/admin-extras-endpoints';
import type { LinkifierParams, ProfileFieldParams } from '../../shared/api/admin-extras-endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type {
  adminExtrasMethods,
  LinkifierInput,
  ProfileFieldUpdate,
} from '../../shared/ipc/admin-extras';
import type { AccountSession } from '../accounts/session';
import type { FileIntake } from '../uploads/intake';
import { postChosenFile } from './file-post';

export type AdminExtrasHandlers = Pick<MethodHandlers, keyof typeof adminExtrasMethods>;

/** The public server's MAX_EMOJI_FILE_SIZE_MIB: larger images are refused before any byte moves. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

function linkifierParams(linkifier: LinkifierInput): LinkifierParams {
  return {
    pattern: linkifier.pattern,
    url_template: linkifier.urlTemplate,
    reverse_template: linkifier.reverseTemplate,
    example_input: linkifier.exampleInput,
  };
}

function profileFieldParams(changes: ProfileFieldUpdate): ProfileFieldParams {
  return {
    name: changes.name,
    hint: changes.hint,
    field_data: changes.fieldData,
    display_in_profile_summary: changes.displayInProfileSummary,
    required: changes.required,
    editable_by_user: changes.editableByUser,
  };
}

export function adminExtrasHandlers(deps: {
  /** The account's session, refusing a signed-out account. */
  signedInSession(accountId: string): AccountSession;
  intake: FileIntake;
}): AdminExtrasHandlers {
  const client = (payload: { accountId: string }) => deps.signedInSession(payload.accountId).client;
  // The server answers a creation with more than the page needs: the page gets the new id only.
  const idOnly = async (answer: Promise<{ id: number }>) => ({ id: (await answer).id });
  return {
    addCustomEmoji: async (p) =>
      (await postChosenFile(client(p), deps.intake, {
        token: p.token,
        apiPath: `/realm/emoji/${encodeURIComponent(p.name)}`,
        maxMib: MAX_EMOJI_FILE_SIZE_MIB,
      })) as never,
    deleteCustomEmoji: (p) => client(p).call(api.deleteCustomEmoji, { emoji_name: p.name }),

    addLinkifier: (p) => idOnly(client(p).call(api.addLinkifier, linkifierParams(p.linkifier))),
    updateLinkifier: (p) =>
      client(p).call(api.updateLinkifier, {
        filter_id: p.linkifierId,
        ...linkifierParams(p.linkifier),
      }),
    deleteLinkifier: (p) => client(p).call(api.deleteLinkifier, { filter_id: p.linkifierId }),
    reorderLinkifiers: (p) =>
      client(p).call(api.reorderLinkifiers, { ordered_linkifier_ids: p.orderedIds }),

    addPlayground: (p) =>
      idOnly(
        client(p).call(api.addPlayground, {
          name: p.name,
          pygments_language: p.language,
          url_template: p.urlTemplate,
        }),
      ),
    deletePlayground: (p) =>
      client(p).call(api.deletePlayground, { playground_id: p.playgroundId }),

    addRealmDomain: (p) =>
      client(p).call(api.addRealmDomain, { domain: p.domain, allow_subdomains: p.allowSubdomains }),
    updateRealmDomain: (p) =>
      client(p).call(api.updateRealmDomain, {
        domain: p.domain,
        allow_subdomains: p.allowSubdomains,
      }),
    deleteRealmDomain: (p) => client(p).call(api.deleteRealmDomain, { domain: p.domain }),

    createProfileField: (p) =>
      idOnly(
        client(p).call(api.createProfileField, {
          field_type: p.field.type,
          ...profileFieldParams(p.field),
        }),
      ),
    updateProfileField: (p) =>
      client(p).call(api.updateProfileField, {
        field_id: p.fieldId,
        ...profileFieldParams(p.changes),
      }),
    deleteProfileField: (p) => client(p).call(api.deleteProfileField, { field_id: p.fieldId }),
    reorderProfileFields: (p) => client(p).call(api.reorderProfileFields, { order: p.orderedIds }),
  };
}
