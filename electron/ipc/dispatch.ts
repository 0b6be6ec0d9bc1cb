// The one place a renderer call becomes a handler call, for both transports: the method name must be
// in the contract, the payload must pass the method's zod schema, and any failure comes back as an
// envelope with a code (never a thrown error the transport would flatten).
import { methods, isMethodName, type MethodHandlers } from '../../shared/ipc/contract';
import { IpcCodes, type IpcErrorShape, type IpcResult } from '../../shared/ipc/errors';
import { ApiError } from '../api/errors';

export type Dispatch = (method: unknown, payload: unknown) => Promise<IpcResult<unknown>>;

export function toErrorShape(error: unknown): IpcErrorShape {
  if (error instanceof ApiError) {
    return { code: error.code, msg: error.message, status: error.status };
  }
  const coded = error as { code?: unknown; message?: unknown };
  if (error instanceof Error && typeof coded.code === 'string' && /^[A-Z_]+$/.test(coded.code)) {
    return { code: coded.code, msg: error.message };
  }
  console.error('Tributary: unexpected error in an IPC handler', error);
  return { code: IpcCodes.internal, msg: error instanceof Error ? error.message : String(error) };
}

export function createDispatcher(handlers: MethodHandlers): Dispatch {
  return async (method, payload) => {
    if (!isMethodName(method)) {
      return {
        ok: false,
        error: { code: IpcCodes.unknownMethod, msg: `Unknown method ${String(method)}` },
      };
    }
    const parsed = methods[method].input.safeParse(payload ?? {});
    if (!parsed.success) {
      return {
        ok: false,
        error: {
          code: IpcCodes.invalidPayload,
          msg: `Invalid payload for ${method}`,
          status: 400,
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String).join('.'),
            message: issue.message,
          })),
        },
      };
    }
    try {
      const handler = handlers[method] as (input: unknown) => unknown;
      return { ok: true, value: (await handler(parsed.data)) ?? null };
    } catch (error) {
      return { ok: false, error: toErrorShape(error) };
    }
  };
}
