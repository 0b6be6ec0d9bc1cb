// `npm run --silent manifest -- share MANIFEST --to 'channel:NAME topic:TOPIC' | --to dm:EMAIL
// [--zuliprc FILE | --account EMAIL] [--data DIR] [--json]`: shares a meeting the way the viewer's
// "Share to a conversation…" does (electron/manifest-service/share.ts), signed in with a zuliprc or an
// account stored by the app in browser mode (its data folder, where keys are in a 0600 file; keys an
// Electron app put in the system keyring cannot be read here, so use --zuliprc for those).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import envPaths from 'env-paths';
import { endpoints } from '../shared/api/endpoints';
import { parseShareTarget, type ShareTarget } from '../shared/manifest';
import { AccountStore } from '../electron/accounts/account-store';
import { FileVault } from '../electron/accounts/vault';
import { parseZuliprc } from '../electron/accounts/zuliprc';
import { ApiClient } from '../electron/api/client';
import { ApiError } from '../electron/api/errors';
import { ManifestReadError, MeetingShareError } from '../electron/manifest';
import { shareMeeting } from '../electron/manifest-service/share';
import { FileIntake } from '../electron/uploads/intake';
import { UploadManager } from '../electron/uploads/uploads';
import { SHARE_USAGE } from './manifest-usage';

/** Exit statuses: 0 shared; 1 the meeting cannot be shared or the server refused; 64 usage error. */
export const SHARE_EXIT = { ok: 0, failed: 1, usage: 64 } as const;

interface ShareCommand {
  manifest: string;
  target: ShareTarget;
  zuliprc?: string;
  account?: string;
  dataDir: string;
  json: boolean;
}

class UsageError extends Error {}

function parseShareCommand(argv: string[]): ShareCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        to: { type: 'string' },
        zuliprc: { type: 'string' },
        account: { type: 'string' },
        data: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [manifest, ...rest] = parsed.positionals;
  if (!manifest) throw new UsageError('MANIFEST is missing');
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const { to, zuliprc, account, data, json } = parsed.values;
  if (!to) throw new UsageError('--to is missing');
  if (zuliprc && account) throw new UsageError('give --zuliprc or --account, not both');
  let target: ShareTarget;
  try {
    target = parseShareTarget(to);
  } catch (err) {
    throw new UsageError(`--to: ${(err as Error).message}`);
  }
  return {
    manifest: resolve(manifest),
    target,
    zuliprc,
    account,
    // The same default as `npm start` (scripts/start.ts).
    dataDir: resolve(data ?? envPaths('tributary', { suffix: '' }).data),
    json: json === true,
  };
}

/** The API client to share with: the zuliprc's credentials, or a stored account's. */
function signIn(command: ShareCommand): ApiClient {
  if (command.zuliprc) {
    let credentials;
    try {
      credentials = parseZuliprc(readFileSync(command.zuliprc, 'utf8'));
    } catch (err) {
      throw new UsageError(`--zuliprc ${command.zuliprc}: ${(err as Error).message}`);
    }
    return new ApiClient({
      site: credentials.site,
      credentials: { email: credentials.email, apiKey: credentials.apiKey },
      userAgent: 'Tributary manifest CLI',
    });
  }
  const store = new AccountStore(command.dataDir);
  const wanted = command.account?.toLowerCase();
  const record = wanted
    ? store.list().find((a) => a.email.toLowerCase() === wanted)
    : (store.get(store.activeAccountId ?? '') ?? store.list()[0]);
  if (!record) {
    throw new UsageError(
      wanted
        ? `no stored account ${command.account} in ${command.dataDir}`
        : `no stored account in ${command.dataDir}; add one in the app or use --zuliprc FILE`,
    );
  }
  const apiKey = new FileVault(command.dataDir).get(record.id);
  if (!apiKey) {
    throw new UsageError(
      `the key of ${record.email} is not readable here (${record.secretBackend}); use --zuliprc FILE`,
    );
  }
  return new ApiClient({
    site: record.site,
    credentials: { email: record.email, apiKey },
    userAgent: 'Tributary manifest CLI',
  });
}

export async function runShare(argv: string[]): Promise<number> {
  let command: ShareCommand;
  let client: ApiClient;
  try {
    command = parseShareCommand(argv);
    client = signIn(command);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n${SHARE_USAGE}\n`);
    return SHARE_EXIT.usage;
  }
  const intake = new FileIntake();
  const uploads = new UploadManager({
    intake,
    onProgress: (p) => {
      if (p.state === 'done')
        process.stderr.write(`uploaded ${p.name} (${p.total} bytes, ${p.method})\n`);
      else if (p.state === 'uploading' && process.stderr.isTTY && p.total > 0)
        process.stderr.write(`\r${p.name}: ${Math.floor((p.loaded / p.total) * 100)}%`);
    },
  });
  const { target } = command;
  try {
    const shared = await shareMeeting(
      {
        intake,
        uploads,
        // The server announces its limit only at registration; here it refuses a file itself (413).
        target: { accountId: 'cli', client, maxFileUploadSizeMib: Number.POSITIVE_INFINITY },
        post: async (content) =>
          (
            await client.call(
              endpoints.sendMessage,
              target.type === 'channel'
                ? { type: 'channel', to: target.channel, topic: target.topic, content }
                : { type: 'direct', to: target.emails, content },
              { retry: false },
            )
          ).id,
      },
      command.manifest,
    );
    const where =
      target.type === 'channel'
        ? `#${target.channel} > ${target.topic}`
        : `a direct message to ${target.emails.join(', ')}`;
    process.stdout.write(
      command.json
        ? JSON.stringify({ messageId: shared.messageId, files: shared.files }) + '\n'
        : `shared ${shared.files.length} files to ${where} (message ${shared.messageId})\n`,
    );
    return SHARE_EXIT.ok;
  } catch (err) {
    if (
      err instanceof MeetingShareError ||
      err instanceof ManifestReadError ||
      err instanceof ApiError
    ) {
      process.stderr.write(`manifest share: ${err.message}\n`);
      return SHARE_EXIT.failed;
    }
    throw err;
  }
}
