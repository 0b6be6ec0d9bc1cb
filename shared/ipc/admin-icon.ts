// Settings › Organization › Organization profile: the organization icon. The current icon comes with
// the snapshot (register's realm_icon_url / realm_icon_source) and the realm `update_dict` event
// with `property: "icon"`; these are the calls that change it. Administrators only (server-side).
import * as z from 'zod';
import { forAccount } from './common';
import { method } from './define';

/** The server's icon URL after the change (relative for an uploaded icon). */
export interface RealmIconResult {
  iconUrl: string;
}

export const adminIconMethods = {
  /** `token`: the image handed to main with intakeFile; main sends it and forgets it. */
  uploadRealmIcon: method<RealmIconResult>()(forAccount({ token: z.string().min(1).max(100) })),
  /** Back to the server's default icon. */
  deleteRealmIcon: method<RealmIconResult>()(forAccount({})),
} as const;
