// Bot creation and edits as multipart requests (an avatar travels as a file part), sent with the
// account's credentials through the API client's fetch and error handling. The avatar is read from
// a file the user chose (an intake token), never from a path the page names. The part carries the
// chosen file's name and type: the public server judges an avatar by its file name's type and
// refused the part named "avatar" as "Invalid image format".
import { readFile } from 'node:fs/promises';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { fileMediaType } from '../uploads/uploads';

/** The public server's avatar limit; bigger files are refused before upload. */
const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

export async function sendBotForm(
  client: ApiClient,
  method: 'POST' | 'PATCH',
  path: string,
  fields: Record<string, string | number | undefined>,
  avatar: { path: string; name: string; size: number } | undefined,
): Promise<Record<string, unknown>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) form.set(name, String(value));
  if (avatar) {
    // Refused by the size the intake recorded, before the file is read into memory.
    if (avatar.size > MAX_AVATAR_BYTES)
      throw new ApiError('server', 'BAD_REQUEST', 'The avatar may be at most 5 MiB', 400);
    const bytes = new Uint8Array(await readFile(avatar.path));
    form.set('file', new Blob([bytes], { type: fileMediaType(avatar) }), avatar.name);
  }
  return client.sendForm(method, path, form);
}

/**
 * The zuliprc the public web app offers for a bot; an outgoing webhook bot's also carries its
 * service token, which a bot server needs to check the payloads it receives.
 */
export function zuliprcText(email: string, apiKey: string, site: string, token?: string): string {
  const tokenLine = token ? `token=${token}\n` : '';
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n${tokenLine}`;
}
