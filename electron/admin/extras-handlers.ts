// Handlers of the admin-extras domain (shared/ipc/admin-extras.ts): custom emoji, linkifiers, code
// playgrounds, allowed domains and custom profile fields, each one chat-API call. The server
// enforces who may; its refusals reach the renderer with their own code and message.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { adminExtrasEndpoints as api } from '../../shared/api/admin-extras-endpoints';
import type { LinkifierParams, ProfileFieldParams } from '../../shared/api/admin-extras-endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type {
  adminExtrasMethods,
  LinkifierInput,
  ProfileFieldUpdate,
} from '../../shared/ipc/admin-extras';
import type { AccountSession } from '../accounts/session';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { FileIntake } from '../uploads/intake';

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

/** POST /realm/emoji/{name} with the image as the one multipart file. */
async function uploadEmoji(client: ApiClient, name: string, path: string): Promise<never> {
  const bytes = await readFile(path);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), basename(path));
  const authorization = client.authorizationHeader();
  if (!authorization) throw new ApiError('auth', 'UNAUTHORIZED', 'No credentials for account');
  const response = await client.fetchWithTimeout(
    `${client.apiBase}/realm/emoji/${encodeURIComponent(name)}`,
    { method: 'POST', headers: { authorization, accept: 'application/json' }, body: form },
  );
  return (await client.readResponse(response)) as never;
}

export function adminExtrasHandlers(deps: {
  /** The account's session, refusing a signed-out account. */
  signedInSession(accountId: string): AccountSession;
  intake: FileIntake;
}): AdminExtrasHandlers {
  const client = (payload: { accountId: string }) => deps.signedInSession(payload.accountId).client;
  return {
    addCustomEmoji: async (p) => {
      const file = deps.intake.get(p.token);
      if (!file) throw new ApiError('server', 'BAD_REQUEST', 'Pick the image again', 400);
      try {
        if (file.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
          throw new ApiError(
            'server',
            'BAD_REQUEST',
            `Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`,
            400,
          );
        }
        return await uploadEmoji(client(p), p.name, file.path);
      } finally {
        deps.intake.release(p.token);
      }
    },
    deleteCustomEmoji: (p) => client(p).call(api.deleteCustomEmoji, { emoji_name: p.name }),

    addLinkifier: async (p) => {
      const res = await client(p).call(api.addLinkifier, linkifierParams(p.linkifier));
      return { id: res.id };
    },
    updateLinkifier: (p) =>
      client(p).call(api.updateLinkifier, {
        filter_id: p.linkifierId,
        ...linkifierParams(p.linkifier),
      }),
    deleteLinkifier: (p) => client(p).call(api.deleteLinkifier, { filter_id: p.linkifierId }),
    reorderLinkifiers: (p) =>
      client(p).call(api.reorderLinkifiers, { ordered_linkifier_ids: p.orderedIds }),

    addPlayground: async (p) => {
      const res = await client(p).call(api.addPlayground, {
        name: p.name,
        lexer_language: p.language,
        url_template: p.urlTemplate,
      });
      return { id: res.id };
    },
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

    createProfileField: async (p) => {
      const res = await client(p).call(api.createProfileField, {
        field_type: p.field.type,
        ...profileFieldParams(p.field),
      });
      return { id: res.id };
    },
    updateProfileField: (p) =>
      client(p).call(api.updateProfileField, {
        field_id: p.fieldId,
        ...profileFieldParams(p.changes),
      }),
    deleteProfileField: (p) => client(p).call(api.deleteProfileField, { field_id: p.fieldId }),
    reorderProfileFields: (p) => client(p).call(api.reorderProfileFields, { order: p.orderedIds }),
  };
}
