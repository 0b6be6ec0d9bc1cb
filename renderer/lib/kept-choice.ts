// A person's view choices kept in the page's localStorage across launches (Recent conversations'
// filters, the Inbox's folded groups, the people list, the welcome panel), as the public web app
// keeps them in local storage. Storage can be missing or refuse (private windows, a full quota)
// and what it holds can be from an older version or edited by hand: reading then gives the
// default, writing does nothing, and the choice still holds until the app closes.

/**
 * The kept value under `key`, made from its JSON by `accept`, which returns undefined for what it
 * does not accept; `fallback` when nothing usable is kept.
 */
export function readKept<T>(key: string, accept: (kept: unknown) => T | undefined, fallback: T): T {
  try {
    const raw = globalThis.localStorage?.getItem(key);
    if (raw === null || raw === undefined) return fallback;
    return accept(JSON.parse(raw)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Keeps `value` (as JSON) under `key`, or nothing where storage is unavailable. */
export function writeKept(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Not kept: the choice holds in this window until it closes.
  }
}
