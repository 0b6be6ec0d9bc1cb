// The first screen: a copy of the chat as it was on screen, kept by main for the next launch, so the
// page can show it the moment its HTML arrives (renderer/first-screen.ts) while the app itself is
// still loading. Main re-sanitizes and seals it (electron/first-screen); the renderer is not trusted.
import * as z from 'zod';
import { forAccount, payload } from './common';
import { method } from './define';
import { FIRST_SCREEN_LAUNCH_KEYS, FIRST_SCREEN_MAX_CHARS } from './first-screen-view';

export {
  FIRST_SCREEN_LAUNCH_KEYS,
  FIRST_SCREEN_MAX_CHARS,
  firstScreenNarrowView,
  type FirstScreenLaunchKey,
} from './first-screen-view';

export const firstScreenLaunchKey = z.enum(FIRST_SCREEN_LAUNCH_KEYS);

export const firstScreenShape = z.strictObject({
  /** #root's markup as it was on screen, scroll offsets as data-first-screen-scroll-* attributes. */
  html: z.string().min(1).max(FIRST_SCREEN_MAX_CHARS),
  /** The view it shows ('inbox', 'recent', 'narrow:<narrow key>'): the app compares its own. */
  view: z.string().min(1).max(2_000),
  /** The viewport's width then: a screen is shown only in the same layout (breakpoints). */
  width: z.number().int().min(1).max(100_000),
  /**
   * <html>'s theme as the app set it (renderer/lib/theme.ts): its data-* attributes and CSS
   * variables, by name. Plain words and lengths only.
   */
  theme: z
    .record(
      z.string().regex(/^(data-[a-z-]{1,40}|--[a-z-]{1,40})$/),
      z
        .string()
        .max(60)
        .regex(/^[\w .%-]*$/),
    )
    .refine((theme) => Object.keys(theme).length <= 16, 'too many theme entries'),
});
export type FirstScreen = z.infer<typeof firstScreenShape>;

export const firstScreenMethods = {
  /**
   * Keeps what the active account's chat shows for the next launches whose URL has one of `keys`
   * ('' when it is the home view). Main adds '' for the conversation it reopens at launch (and
   * drops it for any other view then). Fire and forget: main drops a copy it cannot keep (another
   * account, no cache, no launch it is for).
   */
  saveFirstScreen: method<null>()(
    forAccount({
      keys: z.array(firstScreenLaunchKey).max(FIRST_SCREEN_LAUNCH_KEYS.length),
      screen: firstScreenShape,
    }),
  ),
  /**
   * The active account's kept screen for a launch with `key`, or null. Electron's early script asks
   * with this; browser mode's asks the host's GET /first-screen (electron/host/first-screen-route.ts).
   */
  firstScreen: method<FirstScreen | null>()(payload({ key: firstScreenLaunchKey })),
} as const;
