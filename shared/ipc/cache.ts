// The local cache (electron/cache): what the renderer tells main to keep for the next launch.
import { forAccount } from './common';
import { method } from './define';
import { narrowTerm } from './chat';
import { z } from 'zod';

export const cacheMethods = {
  /**
   * The conversation now open; the next launch opens it first, from the cache. Null: the person
   * went to the Inbox or Recent conversations, so the next launch opens their home view.
   */
  rememberOpenNarrow: method<null>()(
    forAccount({ narrow: z.array(narrowTerm).max(20).nullable() }),
  ),
} as const;
