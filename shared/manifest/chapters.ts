// Chapters are open objects whose item shape the format leaves open; the viewer shows those with a
// string `title` and an integer `startMs` (manifest-decisions §6) and silently skips the others.
import { isPlainObject } from './payload-ref';

export interface DisplayChapter {
  title: string;
  startMs: number;
}

export function displayableChapters(chapters: unknown): DisplayChapter[] {
  if (!Array.isArray(chapters)) return [];
  return chapters
    .filter(
      (c): c is { title: string; startMs: number } =>
        isPlainObject(c) && typeof c.title === 'string' && Number.isInteger(c.startMs),
    )
    .map((c) => ({ title: c.title, startMs: c.startMs }));
}
