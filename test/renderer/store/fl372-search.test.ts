// @vitest-environment node
// Searching people by the address everyone knows them by, on a realm that hides addresses: the
// public server (../shared/fixtures/zulip-server, feature level 372) gives everyone a stand-in
// `email` (`user11@zulipdev.com`) and shows an administrator the real one as `delivery_email`.
// Sent as text, `sender:iago@zulip.com` is refused ("unknown user"); the narrow must carry the id.
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../../renderer/store';
import { searchNarrow } from '../../../renderer/features/search/search-narrow';
import { fl372AdminRegister, fl372Register, haveFl372Fixtures } from './fixtures/fl372';
import type { RegisterResponse } from '../../../shared/api/types';

const IAGO = 11;
const HAMLET = 10;

function names(register: RegisterResponse) {
  const store = createChatStore();
  store.getState().replaceSnapshot('z', register);
  const account = store.getState().accounts.z;
  return { channels: account.channels, users: account.users, selfUserId: account.selfUserId };
}

describe.skipIf(!haveFl372Fixtures)('people in search on a realm that hides addresses', () => {
  it('resolves a real address the viewer may see, in any case, to the person', () => {
    const admin = names(fl372AdminRegister());
    expect(searchNarrow('sender:iago@zulip.com', admin)).toEqual([
      { operator: 'sender', operand: IAGO },
    ]);
    expect(searchNarrow('dm-including:HAMLET@zulip.com', admin)).toEqual([
      { operator: 'dm-including', operand: HAMLET },
    ]);
    expect(searchNarrow('dm:iago@zulip.com,hamlet@zulip.com', admin)).toEqual([
      { operator: 'dm', operand: [IAGO, HAMLET].filter((id) => id !== admin.selfUserId) },
    ]);
    // The stand-in still works too.
    expect(searchNarrow('sender:user11@zulipdev.com', admin)).toEqual([
      { operator: 'sender', operand: IAGO },
    ]);
  });

  it('leaves an address the viewer cannot see as text, for the server to answer', () => {
    const member = names(fl372Register());
    const somebody = [...member.users.users.values()].find((u) => !u.delivery_email);
    expect(somebody).toBeDefined();
    expect(searchNarrow('sender:nobody-knows@zulip.com', member)).toEqual([
      { operator: 'sender', operand: 'nobody-knows@zulip.com' },
    ]);
  });
});
