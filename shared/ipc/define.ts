// Building blocks for the IPC contract. A method is a zod schema for its one payload argument plus a
// phantom output type; a push is a phantom payload type for a main-to-renderer message. Domain files
// (accounts.ts, chat.ts, ...) declare records of these; contract.ts composes them.
import type { z } from 'zod';

export interface MethodDef<I extends z.ZodType = z.ZodType, O = unknown> {
  readonly input: I;
  /** Phantom: carries the result type, never set at run time. */
  readonly __output?: O;
}

/** `method<Result>()(payloadSchema)`: curried so the output type is given and the input inferred. */
export const method =
  <O>() =>
  <I extends z.ZodType>(input: I): MethodDef<I, O> => ({ input });

export interface PushDef<T> {
  readonly __payload?: T;
}

export const push = <T>(): PushDef<T> => ({});

/** Merges domain records, refusing a name defined twice (the renderer sees one flat namespace). */
export function composeDomains<T extends Record<string, unknown>[]>(
  ...records: T
): UnionToIntersection<T[number]> {
  const merged: Record<string, unknown> = {};
  for (const record of records) {
    for (const [name, value] of Object.entries(record)) {
      if (name in merged) throw new Error(`IPC contract: "${name}" is defined by two domains`);
      merged[name] = value;
    }
  }
  return merged as UnionToIntersection<T[number]>;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;
