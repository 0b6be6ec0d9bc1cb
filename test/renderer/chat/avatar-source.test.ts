// What the page shows for a user's avatar (features/messages/MessageRow.tsx, avatarSource): only an
// avatar the realm serves, through the media route. An external avatar service's URL (what a
// register without client_gravatar sends for those users) shows initials, exactly as the null a
// register with it sends: the event loop asks for client_gravatar on that ground
// (test/main/register-state.test.ts).
import { describe, expect, it } from 'vitest';
import { avatarSource } from '../../../renderer/features/messages/MessageRow';
import { normalizeUser } from '../../../renderer/store/slices/users';
import type { WireUser } from '../../../shared/api/types';

const user = (avatar_url: string | null) =>
  normalizeUser({
    user_id: 7,
    email: 'emma@tributary.local',
    full_name: 'Emma',
    avatar_url,
  } as WireUser);

describe('avatarSource', () => {
  it('shows initials for an external avatar URL, as for a left-out one', () => {
    const external =
      'https://secure.gravatar.com/avatar/0123456789abcdef0123456789abcdef?d=identicon&version=1';
    expect(avatarSource('account', user(external))).toBeNull();
    expect(avatarSource('account', user(null))).toBeNull();
  });

  it('shows an avatar the realm serves through the media route', () => {
    const src = avatarSource('account', user('/user_avatars/1/abc.png?version=2'));
    expect(src).toMatch(/\/user_avatars\/1\/abc\.png\?version=2$/);
  });
});
