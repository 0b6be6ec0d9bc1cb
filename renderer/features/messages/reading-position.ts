// Where the reader is in each open message list: the message at the top of its viewport, as the
// list last reported it. A fresh snapshot (after a lost event queue) empties the stored lists; the
// open list is fetched again around this message, so the reader stays where they were instead of
// jumping to the first unread.

const positions = new Map<string, number>();
/** Lists opened at the same time are few; the map never grows past this. */
const MAX_ENTRIES = 50;

function entryKey(accountId: string, narrowKey: string): string {
  return `${accountId}\u0000${narrowKey}`;
}

export function rememberReadingPosition(
  accountId: string,
  narrowKey: string,
  messageId: number,
): void {
  const key = entryKey(accountId, narrowKey);
  positions.delete(key);
  positions.set(key, messageId);
  if (positions.size > MAX_ENTRIES) positions.delete(positions.keys().next().value!);
}

export function readingPosition(accountId: string, narrowKey: string): number | undefined {
  return positions.get(entryKey(accountId, narrowKey));
}
