// What the Ctrl/Cmd+K switcher offers: every subscribed channel, its topics and the direct-message
// conversations, labelled. Built from the sidebar's selectors, and the same array comes back until
// the labels offered change, so the open switcher does not re-render for every event.
import type { AccountState } from '../../store';
import {
  channelNarrow,
  dmNarrow,
  narrowKey,
  topicNarrow,
  type Narrow,
} from '../../../shared/narrow';
import { selectChannelTopics, selectDmConversations } from '../sidebar/sidebar-model';
import { userName } from '../messages/narrow-info';

export interface SwitcherTarget {
  label: string;
  narrow: Narrow;
}

const NONE: SwitcherTarget[] = [];
const memo = new Map<string, { inputs: readonly unknown[]; result: SwitcherTarget[] }>();

export function selectSwitcherTargets(account: AccountState | undefined): SwitcherTarget[] {
  if (!account) return NONE;
  const subscriptions = [...account.channels.subscriptions.values()];
  const topics = subscriptions.map((sub) => selectChannelTopics(account, sub.stream_id));
  const dms = selectDmConversations(account);
  const inputs = [account.channels, account.users, dms, ...topics];
  const hit = memo.get(account.accountId);
  if (hit && hit.inputs.length === inputs.length && hit.inputs.every((v, i) => v === inputs[i]))
    return hit.result;
  let result: SwitcherTarget[] = [];
  subscriptions.forEach((sub, i) => {
    result.push({ label: `#${sub.name}`, narrow: channelNarrow(sub.stream_id) });
    for (const t of topics[i]!)
      result.push({
        label: `#${sub.name} > ${t.name}`,
        narrow: topicNarrow(sub.stream_id, t.name),
      });
  });
  for (const dm of dms)
    result.push({
      label: dm.userIds.map((id) => userName(account, id)).join(', '),
      narrow: dmNarrow(dm.userIds),
    });
  // A topic's new message or unread count changes its list but not what is offered.
  if (
    hit &&
    hit.result.length === result.length &&
    hit.result.every(
      (t, i) =>
        t.label === result[i]!.label && narrowKey(t.narrow) === narrowKey(result[i]!.narrow),
    )
  )
    result = hit.result;
  memo.set(account.accountId, { inputs, result });
  return result;
}
