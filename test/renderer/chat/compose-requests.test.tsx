// Compose requests (c, x, r, quote) are taken once, by the compose box of the view they were made
// for: at once when it is on screen, or, made with a navigation, once the box shows the new view
// and has restored its draft (so quote and reply into another conversation keeps the quote). A
// request nobody took is dropped by the next navigation or Esc, so it never opens compose later.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Compose } from '../../../renderer/features/compose/Compose';
import {
  ALL_MESSAGES_ROUTE,
  goBack,
  navigate,
  requestCompose,
  takeComposeRequest,
  uiStore,
  useUi,
} from '../../../renderer/store/ui-store';
import { topicNarrow } from '../../../shared/narrow';
import { GENERAL, setupStore } from '../store/fixtures';
import { installFakeApi, Providers, resetUi } from './harness';

beforeEach(() => {
  resetUi('a');
  installFakeApi({});
});
afterEach(cleanup);

const route = () => uiStore.getState().route;

describe('compose requests', () => {
  it('are taken once, in order, by the view they were made for', () => {
    expect(takeComposeRequest(route())).toBeNull();
    requestCompose('quote', '> quoted');
    expect(takeComposeRequest({ kind: 'inbox' })).toBeNull();
    expect(takeComposeRequest(route())).toMatchObject({ kind: 'quote', text: '> quoted' });
    expect(takeComposeRequest(route())).toBeNull();
    requestCompose('reply');
    expect(takeComposeRequest(route())?.kind).toBe('reply');
  });

  it('made after a navigation wait for the new view; made before it or before Esc, are dropped', () => {
    requestCompose('dm');
    navigate({ kind: 'inbox' });
    expect(takeComposeRequest(route())).toBeNull();

    navigate(ALL_MESSAGES_ROUTE);
    requestCompose('channel');
    expect(takeComposeRequest(route())?.kind).toBe('channel');

    navigate({ kind: 'inbox' });
    requestCompose('reply');
    goBack();
    expect(takeComposeRequest(route())).toBeNull();
  });
});

/** The narrow view's compose box, pointed at the routed topic. */
function View() {
  const shown = useUi((s) => s.route);
  const topic =
    shown.kind === 'narrow' && shown.narrow.length === 2 ? String(shown.narrow[1]!.operand) : null;
  return (
    <Compose
      accountId="a"
      defaultDestination={topic ? { type: 'stream', streamId: GENERAL, topic } : null}
    />
  );
}

describe('the compose box', () => {
  it('keeps a quote made together with a move to another conversation', async () => {
    const { store } = setupStore({});
    render(
      <Providers store={store}>
        <View />
      </Providers>,
    );
    // As quote and reply does from another conversation: navigate, then request.
    await act(async () => {
      navigate({ kind: 'narrow', narrow: topicNarrow(GENERAL, 'plans') });
      requestCompose('quote', '> quoted text');
    });
    // The request opens the closed box.
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.value).toContain('> quoted text');
  });

  it('takes a quote in the conversation on screen at once', async () => {
    const { store } = setupStore({});
    uiStore.setState({ route: { kind: 'narrow', narrow: topicNarrow(GENERAL, 'plans') } });
    render(
      <Providers store={store}>
        <View />
      </Providers>,
    );
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    await act(async () => requestCompose('quote', '> here'));
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.value).toContain('> here');
  });
});
