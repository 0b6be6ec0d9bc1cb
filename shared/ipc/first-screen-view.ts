// The first screen's plain values, apart from its zod schemas (first-screen.ts): the page imports
// these, and zod would otherwise come into its main bundle with them (names.ts says the same of the
// contract's method names).
import { narrowKey, type NarrowTerm } from '../narrow';

/**
 * What a launch URL's fragment says about the view it opens (renderer/store/ui-store.ts:
 * `#view=inbox`, `#view=recent`, `#view=all`), canonical; '' is a launch without a view, which
 * opens the last conversation or the home view.
 */
export const FIRST_SCREEN_LAUNCH_KEYS = ['', 'view=inbox', 'view=recent', 'view=all'] as const;
export type FirstScreenLaunchKey = (typeof FIRST_SCREEN_LAUNCH_KEYS)[number];

/** A larger copy is not kept: reading, opening and inserting it would cost more than it saves. */
export const FIRST_SCREEN_MAX_CHARS = 1_500_000;

/** How a first screen names the conversation it shows (FirstScreen.view; also 'inbox', 'recent'). */
export function firstScreenNarrowView(narrow: readonly NarrowTerm[]): string {
  return `narrow:${narrowKey(narrow)}`;
}
