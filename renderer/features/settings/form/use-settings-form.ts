// The one rule of every settings screen (docs/settings.md), as code: a change is saved as soon as
// the person has finished making it — a toggle or a choice at once (`set`), a text or number field
// when it is left or Enter is pressed (`edit` while typing, then `commit`). Each field then says
// "Saving…", "Saved", why its value cannot be sent, or the server's refusal, and keeps the person's
// value until it is accepted or they revert it: nothing is dropped or silently reverted. A saved
// value stays shown until the store's event brings it, so the field never flashes the old value.
// Forms register with unsaved.ts, so leaving a section first saves what is pending and then asks
// before throwing away what could not be saved.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { errorText } from '../../../bridge/api';
import { registerSettingsForm } from './unsaved';

export type FormValues = Record<string, unknown>;

/** What one field shows beside it. */
export interface FieldState {
  status: 'idle' | 'saving' | 'saved';
  /** Why the value cannot be sent (checked here), or why the server refused it. */
  problem?: string;
  refused?: boolean;
}

export interface SettingsForm<T extends FormValues> {
  /** The server's values, overlaid by what was sent and what the person is editing. */
  values: T;
  /** Edits not yet accepted by the server (typed, invalid, refused or in flight). */
  pending: Partial<T>;
  /** Something shown differs from the server's value and is not on its way there. */
  dirty: boolean;
  field(name: keyof T): FieldState;
  /** Show a value without sending it (typing). */
  edit<K extends keyof T>(name: K, value: T[K]): void;
  /** Choose a value and save it at once (toggles, selects). */
  set<K extends keyof T>(name: K, value: T[K]): void;
  /** Save every pending edit that can be sent; resolves whether nothing is left unsaved. */
  commit(): Promise<boolean>;
  /** Back to the server's value (one field, or all). */
  revert(name?: keyof T): void;
}

export interface SettingsFormOptions<T extends FormValues> {
  /** Field -> why its value cannot be sent (checked only for fields being edited). */
  validate?: (values: T) => Partial<Record<keyof T, string | undefined>>;
  send: (changes: Partial<T>) => Promise<unknown>;
  /** Fields that only make sense together (retention "forever" and its days): all or none. */
  together?: boolean;
}

/** Equal values (NaN, an unfinished number, equals only itself; group settings are objects). */
const same = (a: unknown, b: unknown) =>
  Object.is(a, b) ||
  (typeof a === 'object' &&
    typeof b === 'object' &&
    a !== null &&
    b !== null &&
    JSON.stringify(a) === JSON.stringify(b));

/** The form's own state; replaced, never changed in place. */
interface Model {
  edits: FormValues;
  /** Accepted by the server, not yet back in `saved`. */
  sent: FormValues;
  /** The saved value each sent one was sent over: once `saved` moves, the store knows better. */
  sentOver: FormValues;
  saving: readonly string[];
  saved: readonly string[];
  refusals: Record<string, string>;
}

const EMPTY: Model = { edits: {}, sent: {}, sentOver: {}, saving: [], saved: [], refusals: {} };

const without = <V>(record: Record<string, V>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));

/** Edits that differ from what the server has (or was sent). */
function pendingOf(model: Model, saved: FormValues): FormValues {
  const base = (k: string) => (k in model.sent ? model.sent[k] : saved[k]);
  return Object.fromEntries(Object.entries(model.edits).filter(([k, v]) => !same(v, base(k))));
}

function problemsOf<T extends FormValues>(
  model: Model,
  saved: T,
  options: SettingsFormOptions<T>,
): Record<string, string | undefined> {
  const values = { ...saved, ...model.sent, ...model.edits } as T;
  return (options.validate?.(values) ?? {}) as Record<string, string | undefined>;
}

export function useSettingsForm<T extends FormValues>(
  saved: T,
  options: SettingsFormOptions<T>,
): SettingsForm<T> {
  const [model, setModel] = useState<Model>(EMPTY);
  // Handlers read the newest state through these (a choice edits and saves in one go).
  const current = useRef(model);
  const latest = useRef({ saved, options });
  useLayoutEffect(() => {
    current.current = model;
    latest.current = { saved, options };
  });
  const update = (change: (m: Model) => Model) => {
    current.current = change(current.current);
    setModel(current.current);
  };

  // A sent value is no longer needed on top of the store once the store has it, or has moved on
  // (the server stored it normalised, say trimmed, or someone changed it since).
  const arrived = Object.keys(model.sent).filter(
    (k) =>
      !model.saving.includes(k) &&
      (same(model.sent[k], saved[k]) || !same(model.sentOver[k], saved[k])),
  );
  if (arrived.length > 0) {
    setModel({
      ...model,
      sent: without(model.sent, arrived),
      sentOver: without(model.sentOver, arrived),
    });
  }

  // Saves on their way: a later commit waits for them, so it sends in order and knows the outcome.
  const inflight = useRef(new Set<Promise<unknown>>());
  const commit = async (): Promise<boolean> => {
    while (inflight.current.size > 0) await Promise.allSettled([...inflight.current]);
    const { saved: now, options: opts } = latest.current;
    const pending = pendingOf(current.current, now);
    const problems = problemsOf(current.current, now, opts);
    let keys = Object.keys(pending).filter((k) => !current.current.saving.includes(k));
    // Fields that travel together wait while any of them cannot be sent.
    keys = opts.together
      ? Object.values(problems).some(Boolean)
        ? []
        : keys
      : keys.filter((k) => !problems[k]);
    if (keys.length === 0) return Object.keys(pending).length === 0;
    const changes = Object.fromEntries(keys.map((k) => [k, pending[k]])) as Partial<T>;
    update((m) => ({
      ...m,
      saving: [...m.saving, ...keys],
      saved: m.saved.filter((k) => !keys.includes(k)),
      refusals: without(m.refusals, keys),
    }));
    let ok = true;
    const sending = opts.send(changes);
    inflight.current.add(sending);
    try {
      await sending;
      update((m) => ({
        ...m,
        sent: { ...m.sent, ...changes },
        sentOver: {
          ...m.sentOver,
          ...Object.fromEntries(keys.map((k) => [k, latest.current.saved[k]])),
        },
        // Typed on meanwhile: the newer text stays an edit.
        edits: without(
          m.edits,
          keys.filter((k) => same(m.edits[k], changes[k])),
        ),
        saved: [...m.saved, ...keys],
        saving: m.saving.filter((k) => !keys.includes(k)),
      }));
    } catch (error) {
      ok = false;
      update((m) => ({
        ...m,
        refusals: { ...m.refusals, ...Object.fromEntries(keys.map((k) => [k, errorText(error)])) },
        saving: m.saving.filter((k) => !keys.includes(k)),
      }));
    } finally {
      inflight.current.delete(sending);
    }
    return ok && Object.keys(pendingOf(current.current, latest.current.saved)).length === 0;
  };

  const edit = (name: keyof T, value: unknown) => {
    const k = name as string;
    update((m) => ({
      ...m,
      edits: { ...m.edits, [k]: value },
      saved: m.saved.filter((s) => s !== k),
      refusals: without(m.refusals, [k]),
    }));
  };

  // Registered for the leave guard; on unmount whatever can still be sent is sent.
  const commitRef = useRef(commit);
  useLayoutEffect(() => {
    commitRef.current = commit;
  });
  // Set when the person chose "Discard changes": the unmount then sends nothing.
  const discarded = useRef(false);
  useEffect(() => {
    const unregister = registerSettingsForm({
      dirty: () => {
        const m = current.current;
        return m.saving.length > 0 || Object.keys(pendingOf(m, latest.current.saved)).length > 0;
      },
      commit: () => commitRef.current(),
      discard: () => {
        discarded.current = true;
      },
    });
    return () => {
      unregister();
      if (!discarded.current) void commitRef.current();
    };
  }, []);

  const pending = pendingOf(model, saved) as Partial<T>;
  const problems = problemsOf(model, saved, options);
  return {
    values: { ...saved, ...model.sent, ...model.edits } as T,
    pending,
    dirty: Object.keys(pending).some((k) => !model.saving.includes(k)),
    field: (name) => {
      const k = name as string;
      const status = model.saving.includes(k)
        ? 'saving'
        : model.saved.includes(k)
          ? 'saved'
          : 'idle';
      if (model.refusals[k]) return { status, problem: model.refusals[k], refused: true };
      // Fields sent together also flag an untouched partner ("forever" off, no days yet).
      const edited = k in pending || (options.together && Object.keys(pending).length > 0);
      if (edited && problems[k]) return { status, problem: problems[k] };
      return { status };
    },
    edit,
    set: (name, value) => {
      edit(name, value);
      void commit();
    },
    commit,
    revert: (name) => {
      const keys = name === undefined ? Object.keys(current.current.edits) : [name as string];
      update((m) => ({ ...m, edits: without(m.edits, keys), refusals: without(m.refusals, keys) }));
    },
  };
}
