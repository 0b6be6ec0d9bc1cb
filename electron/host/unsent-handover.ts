// Browser mode: imports what pages of an earlier launch could not hand over before the app went away
// (renderer/bridge/unsent-handover.ts keeps it sealed in cookies that every port of 127.0.0.1
// shares). A page of this launch POSTs UNSENT_HANDOVER_PATH when it starts; each group of cookies
// (one per port) that opens with the key of this launch's or an earlier launch's secret is handed
// to the outbox through the IPC dispatcher (validated like any sendMessage; the outbox takes each
// localId once, however often it comes), then cleared. Groups sealed with a secret this data
// folder never had are left alone (another data folder's launch may own them).
import { createDecipheriv, createHash } from 'node:crypto';
import {
  UNSENT_COOKIE_PREFIX,
  UNSENT_HANDOVER_PATH,
  UNSENT_KEY_LABEL,
} from '../../shared/ipc/wire';
import { IpcCodes } from '../../shared/ipc/errors';
import type { Dispatch } from '../ipc/dispatch';

interface Sealed {
  v: number;
  messages: Array<{ accountId: unknown; localId: unknown; message: unknown }>;
}

/** The handover cookies in a Cookie header, grouped by the port of the page that wrote them. */
function cookieGroups(
  header: string | undefined,
): Map<string, Array<[name: string, value: string]>> {
  const groups = new Map<string, Array<[string, string]>>();
  for (const part of (header ?? '').split(';')) {
    const [name = '', ...rest] = part.trim().split('=');
    const found = new RegExp(`^${UNSENT_COOKIE_PREFIX}(\\d+)-(\\d+)$`).exec(name);
    if (!found) continue;
    const group = groups.get(found[1]) ?? [];
    group.push([name, rest.join('=')]);
    groups.set(found[1], group);
  }
  for (const group of groups.values()) group.sort(([a], [b]) => a.localeCompare(b));
  return groups;
}

/** Opens a sealed value with one of the secrets; null when none fits (or it was tampered with). */
export function openSealed(value: string, secrets: string[]): Sealed | null {
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length < 12 + 16) return null;
  const iv = bytes.subarray(0, 12);
  const tag = bytes.subarray(bytes.length - 16);
  const body = bytes.subarray(12, bytes.length - 16);
  for (const secret of secrets) {
    const key = createHash('sha256').update(`${UNSENT_KEY_LABEL}${secret}`).digest();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      const sealed = JSON.parse(plain) as Sealed;
      if (sealed?.v === 1 && Array.isArray(sealed.messages)) return sealed;
      return null;
    } catch {
      // Another secret's, or not ours: try the next.
    }
  }
  return null;
}

/** Refusals that will not change on another try: the group is done with even so. */
const FINAL_REFUSALS: string[] = [IpcCodes.unknownAccount, IpcCodes.invalidPayload];

export async function importUnsent(
  cookieHeader: string | undefined,
  secrets: string[],
  dispatch: Dispatch,
): Promise<{ handedOver: number; clear: string[] }> {
  let handedOver = 0;
  const clear: string[] = [];
  for (const cookies of cookieGroups(cookieHeader).values()) {
    const sealed = openSealed(cookies.map(([, value]) => value).join(''), secrets);
    if (!sealed) continue;
    let done = true;
    for (const { accountId, localId, message } of sealed.messages) {
      const answer = await dispatch('sendMessage', { accountId, localId, message });
      if (answer.ok) handedOver += 1;
      else if (!FINAL_REFUSALS.includes(answer.error.code)) done = false;
    }
    if (done) clear.push(...cookies.map(([name]) => name));
  }
  return { handedOver, clear };
}

/** Set-Cookie values that remove the imported cookies (same name and path as the page set). */
export function clearingCookies(names: string[]): string[] {
  return names.map((name) => `${name}=; Path=${UNSENT_HANDOVER_PATH}; Max-Age=0; SameSite=Strict`);
}
