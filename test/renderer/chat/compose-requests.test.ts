// Compose requests (c, x, r, quote) are taken once: by the compose box mounted when they are made,
// or by the one a navigation mounts right after; a request nobody took is dropped by the next
// navigation, so it never opens compose later in another view.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ALL_MESSAGES_ROUTE,
  navigate,
  requestCompose,
  takeComposeRequest,
} from '../../../renderer/src/ui-store';
import { resetUi } from './harness';

beforeEach(() => resetUi('a'));

describe('compose requests', () => {
  it('are taken once, in order', () => {
    expect(takeComposeRequest()).toBeNull();
    requestCompose('quote', '> quoted');
    expect(takeComposeRequest()).toMatchObject({ kind: 'quote', text: '> quoted' });
    expect(takeComposeRequest()).toBeNull();
    requestCompose('reply');
    expect(takeComposeRequest()?.kind).toBe('reply');
  });

  it('made after a navigation wait for the new view; made before it, are dropped', () => {
    requestCompose('dm');
    navigate({ kind: 'inbox' });
    expect(takeComposeRequest()).toBeNull();

    navigate(ALL_MESSAGES_ROUTE);
    requestCompose('channel');
    // The view's compose box mounts after this, and takes it.
    expect(takeComposeRequest()?.kind).toBe('channel');
  });
});
