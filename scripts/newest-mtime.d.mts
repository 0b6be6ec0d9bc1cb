// Types of newest-mtime.mjs (plain JavaScript: the launcher runs before any transpiler loads).
export function newestMtime(path: string): number;
