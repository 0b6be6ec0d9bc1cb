// Register state for features the local realm does not have (linkifiers,
// playgrounds, domains, scheduled messages, snippets...). Returning the empty form
// keeps clients that expect these keys working; the features' own modules replace entries here.
import type { ResourceModule } from '../module';

const EMPTY_STATE: Record<string, () => Record<string, unknown>> = {
  realm_linkifiers: () => ({ realm_linkifiers: [] }),
  realm_playgrounds: () => ({ realm_playgrounds: [] }),
  realm_domains: () => ({ realm_domains: [] }),
  // Asked for as default_stream_groups, as from the public server.
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  scheduled_messages: () => ({ scheduled_messages: [] }),
  saved_snippets: () => ({ saved_snippets: [] }),
  onboarding_steps: () => ({ onboarding_steps: [] }),
  navigation_views: () => ({ navigation_views: [] }),
  stop_words: () => ({ stop_words: [] }),
  // The public name of the spec's has_videoprovider_token (shared/api/public-names.ts).
  video_calls: () => ({ has_zoom_token: false }),
};

export const otherStateResource: ResourceModule = {
  name: 'other-state',
  routes() {},
  initialState(_ctx, _user, request) {
    const state: Record<string, unknown> = {};
    for (const [type, build] of Object.entries(EMPTY_STATE)) {
      if (request.wants(type)) Object.assign(state, build());
    }
    return state;
  },
};
