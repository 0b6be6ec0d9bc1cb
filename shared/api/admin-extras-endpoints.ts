// Endpoints behind Settings > Organization's custom emoji, linkifiers, code playgrounds, allowed
// domains and custom profile fields (the administration screens of issue #11, item 7). Custom emoji
// upload is multipart: electron/admin/ sends the file body itself, as uploads do.
import { endpoint, type SuccessEnvelope } from './endpoints';
import type { CustomProfileField } from './types';
import type { RealmDomain, RealmLinkifier } from './realm-config';

export interface LinkifierParams {
  pattern: string;
  url_template: string;
  reverse_template?: string;
  example_input?: string;
  alternative_url_templates?: string[];
}

export interface ProfileFieldParams {
  name?: string;
  hint?: string;
  field_data?: Record<string, unknown>;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

export const adminExtrasEndpoints = {
  deleteCustomEmoji: endpoint<{ emoji_name: string }, SuccessEnvelope>(
    'DELETE',
    '/realm/emoji/{emoji_name}',
  ),
  getLinkifiers: endpoint<
    Record<string, never>,
    SuccessEnvelope & { linkifiers: RealmLinkifier[] }
  >('GET', '/realm/linkifiers'),
  addLinkifier: endpoint<LinkifierParams, SuccessEnvelope & { id: number }>(
    'POST',
    '/realm/filters',
  ),
  updateLinkifier: endpoint<LinkifierParams & { filter_id: number }, SuccessEnvelope>(
    'PATCH',
    '/realm/filters/{filter_id}',
    { idempotent: true },
  ),
  deleteLinkifier: endpoint<{ filter_id: number }, SuccessEnvelope>(
    'DELETE',
    '/realm/filters/{filter_id}',
  ),
  reorderLinkifiers: endpoint<{ ordered_linkifier_ids: number[] }, SuccessEnvelope>(
    'PATCH',
    '/realm/linkifiers',
    { idempotent: true },
  ),
  addPlayground: endpoint<
    { name: string; pygments_language: string; url_template: string },
    SuccessEnvelope & { id: number }
  >('POST', '/realm/playgrounds'),
  deletePlayground: endpoint<{ playground_id: number }, SuccessEnvelope>(
    'DELETE',
    '/realm/playgrounds/{playground_id}',
  ),
  getRealmDomains: endpoint<Record<string, never>, SuccessEnvelope & { domains: RealmDomain[] }>(
    'GET',
    '/realm/domains',
  ),
  addRealmDomain: endpoint<
    { domain: string; allow_subdomains: boolean },
    SuccessEnvelope & { new_domain: [number, string] }
  >('POST', '/realm/domains'),
  updateRealmDomain: endpoint<{ domain: string; allow_subdomains: boolean }, SuccessEnvelope>(
    'PATCH',
    '/realm/domains/{domain}',
    { idempotent: true },
  ),
  deleteRealmDomain: endpoint<{ domain: string }, SuccessEnvelope>(
    'DELETE',
    '/realm/domains/{domain}',
  ),
  getProfileFields: endpoint<
    Record<string, never>,
    SuccessEnvelope & { custom_fields: CustomProfileField[] }
  >('GET', '/realm/profile_fields'),
  createProfileField: endpoint<
    ProfileFieldParams & { field_type: number },
    SuccessEnvelope & { id: number }
  >('POST', '/realm/profile_fields'),
  updateProfileField: endpoint<ProfileFieldParams & { field_id: number }, SuccessEnvelope>(
    'PATCH',
    '/realm/profile_fields/{field_id}',
    { idempotent: true },
  ),
  deleteProfileField: endpoint<{ field_id: number }, SuccessEnvelope>(
    'DELETE',
    '/realm/profile_fields/{field_id}',
  ),
  reorderProfileFields: endpoint<{ order: number[] }, SuccessEnvelope>(
    'PATCH',
    '/realm/profile_fields',
    { idempotent: true },
  ),
} as const;
