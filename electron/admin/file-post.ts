// One chosen file sent as the single multipart part of an administration request (custom emoji,
// the organization icon). The file is named by its intake token, never by a path from the page;
// the token is spent whatever the outcome, and a file over the server's limit never leaves. The
// part carries the file's own name and media type: the public server goes by the declared type and
// refused an untyped part (application/octet-stream) as "Invalid image format".
import { readFile } from 'node:fs/promises';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { FileIntake } from '../uploads/intake';
import { fileMediaType } from '../uploads/uploads';

export async function postChosenFile(
  client: ApiClient,
  intake: FileIntake,
  request: { token: string; apiPath: string; maxMib: number },
): Promise<Record<string, unknown>> {
  const file = intake.get(request.token);
  if (!file) throw new ApiError('server', 'BAD_REQUEST', 'Pick the image again', 400);
  try {
    if (file.size > request.maxMib * 1024 * 1024) {
      throw new ApiError(
        'server',
        'BAD_REQUEST',
        `Uploaded file is larger than the allowed limit of ${request.maxMib} MiB`,
        400,
      );
    }
    const bytes = await readFile(file.path);
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(bytes)], { type: fileMediaType(file) }),
      file.name,
    );
    return await client.sendForm('POST', request.apiPath, form);
  } finally {
    intake.release(request.token);
  }
}
