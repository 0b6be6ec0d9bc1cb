// How an API request's parameters go on the wire, as the public server reads them: strings as they
// are, everything else (numbers, booleans, arrays, objects) as JSON, undefined left out. Pairs, so
// each side wraps them in its own URLSearchParams (shared/ has no DOM or Node types).
export function paramEntries(params: Record<string, unknown>): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    entries.push([key, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  return entries;
}
