// Payload references (manifest-decisions §2): exactly one of `path` and `attachment`; a path is
// relative, '/'-separated and stays inside the manifest's folder.

/** Why a payload path is unsafe, or null when it is a safe relative path. Purely lexical. */
export function unsafePathReason(path: string): string | null {
  if (path.length === 0) return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL character';
  if (path.includes('\\')) return 'the path contains a backslash (paths are "/"-separated)';
  if (/^[A-Za-z]:/.test(path)) return 'the path starts with a drive letter';
  if (path.startsWith('/')) return 'the path is absolute';
  let depth = 0;
  for (const segment of path.split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return 'the path leaves the manifest folder ("..")';
  }
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasMember(obj: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, name);
}
