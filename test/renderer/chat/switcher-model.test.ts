// The Ctrl/Cmd+K switcher's list (features/views/switcher-model.ts) comes back as the same array
// while what it offers is unchanged, and follows the conversations' order even when two of them
// carry the same label (two people with the same name).
import { describe, expect, it } from 'vitest';
import { selectSwitcherTargets } from '../../../renderer/features/views/switcher-model';
import { narrowKey } from '../../../shared/narrow';
import {
  EMMA,
  FARID,
  SELF,
  directMessage,
  eventId,
  messageEvent,
  register,
  setupStore,
} from '../store/fixtures';

const emmaName = register().realm_users.find((u) => u.user_id === EMMA)!.full_name;
const dmTargets = (targets: ReturnType<typeof selectSwitcherTargets>) =>
  targets.filter((t) => t.label === emmaName).map((t) => narrowKey(t.narrow));

describe('selectSwitcherTargets', () => {
  it('keeps its array while nothing offered changes, and follows an order swap of same-named people', () => {
    const t = setupStore();
    // Farid renamed to Emma's name: two conversations, one label.
    t.apply(
      {
        id: eventId(),
        type: 'realm_user',
        op: 'update',
        person: { user_id: FARID, full_name: emmaName },
      },
      messageEvent(directMessage(101, [SELF, EMMA]), ['read']),
      messageEvent(directMessage(102, [SELF, FARID]), ['read']),
    );
    const first = selectSwitcherTargets(t.account());
    expect(dmTargets(first)).toEqual([
      narrowKey([{ operator: 'dm', operand: [FARID] }]),
      narrowKey([{ operator: 'dm', operand: [EMMA] }]),
    ]);
    // A read message in a conversation already first: the same array.
    t.apply(messageEvent(directMessage(103, [SELF, FARID]), ['read']));
    expect(selectSwitcherTargets(t.account())).toBe(first);
    // Emma's conversation becomes the newest: same labels, other order.
    t.apply(messageEvent(directMessage(104, [SELF, EMMA]), ['read']));
    expect(dmTargets(selectSwitcherTargets(t.account()))).toEqual([
      narrowKey([{ operator: 'dm', operand: [EMMA] }]),
      narrowKey([{ operator: 'dm', operand: [FARID] }]),
    ]);
  });
});
