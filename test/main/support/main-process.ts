/**
 * The main-process services in a process of their own, so a test can kill them with SIGKILL in the
 * middle of a send (test/main/outbox-faults.test.ts). Run from its esbuild bundle (main-child.ts).
 *
 *   argv: <dataDir> <site> <email> <apiKey>   (email and apiKey "-" to start the stored account)
 *   stdin, one JSON line per command:   {"op":"send","localId":"…","message":{…}}
 *                                       {"op":"act","kind":"addReaction","payload":{…}} (an action
 *                                       of electron/outbox/offline-actions.ts, without accountId)
 *   stdout, one JSON line per fact:     {"op":"live"} {"op":"outbox","entries":[…]}
 *                                       {"op":"sent","localId":"…","messageId":n|null,"state":"…"}
 *                                       {"op":"error","localId":"…","code":"…"}
 *                                       {"op":"acted","result":…} / {"op":"error","code":"…"}
 *                                       {"op":"notice",…} (an action refused or kept as a draft)
 */
import { createInterface } from 'node:readline';
import { FileVault } from '../../../electron/accounts/vault';
import { MainServices } from '../../../electron/services';
import { PushHub } from '../../../electron/push-hub';
import type { OutgoingMessage } from '../../../shared/ipc/chat';
import type { OfflineAction } from '../../../electron/outbox/action-queue';

const [dataDir, site, email, apiKey] = process.argv.slice(2) as [string, string, string, string];
const say = (fact: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fact)}\n`);

const hub = new PushHub();
const services = new MainServices({
  appInfo: { runtime: 'browser', version: 'test', platform: process.platform },
  openExternal: () => undefined,
  pollTimeoutMs: 5_000,
  dataDir,
  vault: new FileVault(dataDir),
  push: hub.push,
});
hub.subscribe((channel, payload) => {
  if (channel === 'outbox') say({ op: 'outbox', ...(payload as object) });
  if (channel === 'actionNotice') say({ op: 'notice', ...(payload as object) });
  const status = (payload as { state?: { status?: string } }).state?.status;
  if (channel === 'connection' && status === 'live') say({ op: 'live' });
});

async function main() {
  let accountId: string;
  if (email === '-') {
    services.start();
    accountId = services.listAccounts().accounts[0]!.id;
  } else {
    accountId = (await services.addAccount({ site, email, apiKey })).id;
  }
  say({ op: 'account', accountId });
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as
      { op: 'send'; localId: string; message: OutgoingMessage } | ({ op: 'act' } & OfflineAction);
    if (command.op === 'act') {
      services
        .session(accountId)
        .actions.act({ kind: command.kind, payload: command.payload } as OfflineAction)
        .then((result) => say({ op: 'acted', result }))
        .catch((error: { code?: string }) =>
          say({ op: 'error', code: error.code ?? String(error) }),
        );
      continue;
    }
    Promise.resolve(
      services.handlers.sendMessage({
        accountId,
        message: command.message,
        localId: command.localId,
      }),
    )
      .then((result) => say({ op: 'sent', ...result }))
      .catch((error: { code?: string }) =>
        say({ op: 'error', localId: command.localId, code: error.code ?? String(error) }),
      );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
