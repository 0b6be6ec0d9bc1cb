// Electron side of the IPC contract. Every channel is registered through one wrapper that checks who
// is calling (our app:// origin, top frame only) and validates the payload before any handler runs.
// `ipcMain` is passed in rather than imported, so tests can drive this with a mock.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { methodNames } from '../../shared/ipc/contract';
import { IpcCodes, type IpcResult } from '../../shared/ipc/errors';
import { IPC_INTAKE_CHANNEL, IPC_INVOKE_PREFIX } from '../../shared/ipc/wire';
import type { Dispatch } from './dispatch';
import { parseRawJson } from './raw-json';
import type { FileIntake } from '../uploads/intake';
import { isAppUrl } from '../shell/security';

/** Only our own page, in the window's top frame, may call main. */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>,
): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (!isAppUrl(frame.url)) return false;
  if (frame.parent !== null) return false;
  const top = event.sender.mainFrame;
  // WebFrameMain objects are cached per frame, but compare ids too in case a wrapper was recreated.
  return (
    frame === top ||
    (typeof frame.routingId === 'number' &&
      frame.routingId === top.routingId &&
      frame.processId === top.processId)
  );
}

type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  dispatch: Dispatch,
  intake: FileIntake,
  trusted: (event: IpcMainInvokeEvent) => boolean = isTrustedSender,
): () => void {
  const channels: string[] = [];
  const handleChecked = (
    channel: string,
    run: (payload: unknown) => Promise<IpcResult<unknown>>,
  ) => {
    channels.push(channel);
    ipcMain.handle(channel, async (event, payload: unknown): Promise<IpcResult<unknown>> => {
      if (!trusted(event)) {
        return {
          ok: false,
          error: {
            code: IpcCodes.forbiddenSender,
            msg: 'IPC from an untrusted frame',
            status: 403,
          },
        };
      }
      return run(payload);
    });
  };

  for (const name of methodNames) {
    handleChecked(`${IPC_INVOKE_PREFIX}${name}`, async (payload) => {
      const result = await dispatch(name, payload);
      // Structured clone would copy a RawJson as {text}: the page gets the value it stands for.
      return result.ok ? { ok: true, value: parseRawJson(result.value) } : result;
    });
  }
  // The preload resolves a dropped/pasted File to its path (webUtils) and hands it over here; the
  // renderer gets back only a token.
  handleChecked(IPC_INTAKE_CHANNEL, async (payload) => {
    const path = (payload as { path?: unknown } | null)?.path;
    if (typeof path !== 'string' || path.length === 0 || path.length > 4096) {
      return {
        ok: false,
        error: { code: IpcCodes.invalidPayload, msg: 'Not a file path', status: 400 },
      };
    }
    try {
      return { ok: true, value: intake.register(path) };
    } catch (error) {
      return {
        ok: false,
        error: { code: 'BAD_REQUEST', msg: (error as Error).message, status: 400 },
      };
    }
  });
  return () => channels.forEach((channel) => ipcMain.removeHandler(channel));
}
