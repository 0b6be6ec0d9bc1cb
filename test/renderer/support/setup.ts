// Testing Library's waits (findBy…, waitFor) give up after 1 s by default. The renderer tests that
// talk to a real local server (channels-live, compose-preview-live…) wait on HTTP round trips, and
// in `npm test` they share two cores with the end-to-end files: 1 s ran out there while each passed
// alone. A wait still ends as soon as its condition holds; only a failing one takes longer.
import { configure } from '@testing-library/react';
import { forgetLeftViews } from '../../../renderer/features/accounts/switch-account';
import { forgetListLayout } from '../../../renderer/features/messages/list-layout';
import { clearFeedback } from '../../../renderer/lib/ui/feedback';
import { uiStore, type UiState } from '../../../renderer/store/ui-store';

configure({ asyncUtilTimeout: 5_000 });

// The renderer project shares one module registry per worker (vitest.config.ts), and this file runs
// before each test file: the app-wide state a file may leave behind (the route, overlays, a toast,
// the view each account was left on, the last message list's measured size) starts each file as a
// fresh page's would.
const fresh = globalThis as { __tributaryFreshUi?: UiState };
fresh.__tributaryFreshUi ??= uiStore.getState();
uiStore.setState(fresh.__tributaryFreshUi, true);
clearFeedback();
forgetLeftViews();
forgetListLayout();
