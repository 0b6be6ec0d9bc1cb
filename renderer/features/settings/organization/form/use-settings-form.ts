// One settings form of an organization screen: the values shown (saved values from the store,
// overlaid by what the person is editing), what changed, the problems that block saving, and the
// server's refusal. A saved change stays shown until the realm's event brings it back, so the
// field never flashes the old value between the response and the event.
import { useState } from 'react';
import { errorText } from '../../../../bridge/api';

export type FormValues = Record<string, unknown>;

export interface SettingsForm<T extends FormValues> {
  values: T;
  /** Edited values that differ from the saved ones. */
  changes: Partial<T>;
  dirty: boolean;
  /** Field name -> why its value cannot be sent. */
  problems: Partial<Record<keyof T, string>>;
  status: 'idle' | 'saving' | 'saved';
  refusal: string | null;
  set<K extends keyof T>(name: K, value: T[K]): void;
  discard(): void;
  save(): Promise<void>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useSettingsForm<T extends FormValues>(
  saved: T,
  options: {
    validate?: (values: T) => Partial<Record<keyof T, string>>;
    send: (changes: Partial<T>) => Promise<unknown>;
  },
): SettingsForm<T> {
  const [edits, setEdits] = useState<Partial<T>>({});
  const [sent, setSent] = useState<Partial<T>>({});
  const [status, setStatus] = useState<SettingsForm<T>['status']>('idle');
  const [refusal, setRefusal] = useState<string | null>(null);

  // Sent values the store now holds are no longer needed on top of it.
  const arrived = Object.keys(sent).filter((k) => same(sent[k], saved[k]));
  if (arrived.length > 0) {
    const rest = { ...sent };
    for (const k of arrived) delete rest[k];
    setSent(rest);
  }
  const values = { ...saved, ...sent, ...edits } as T;
  const changes = Object.fromEntries(
    Object.entries(edits).filter(([k, v]) => !same(v, { ...saved, ...sent }[k])),
  ) as Partial<T>;
  const problems = options.validate?.(values) ?? {};
  const dirty = Object.keys(changes).length > 0;

  return {
    values,
    changes,
    dirty,
    problems,
    status,
    refusal,
    set: (name, value) => {
      setEdits((e) => ({ ...e, [name]: value }));
      setStatus('idle');
      setRefusal(null);
    },
    discard: () => {
      setEdits({});
      setRefusal(null);
    },
    save: async () => {
      if (!dirty || Object.values(problems).some(Boolean)) return;
      setStatus('saving');
      try {
        await options.send(changes);
        setSent((s) => ({ ...s, ...changes }));
        setEdits({});
        setStatus('saved');
      } catch (error) {
        setRefusal(errorText(error));
        setStatus('idle');
      }
    },
  };
}
