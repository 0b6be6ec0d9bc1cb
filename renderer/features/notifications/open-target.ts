// Where a clicked notification leads: the window comes forward (main did that in Electron) and the
// conversation opens at the message, switching account first when it belongs to another one.
import { dmNarrow, topicNarrow } from '../../../shared/narrow';
import type { NotificationTargetPayload } from '../../../shared/ipc/notifications';
import type { ChatStore } from '../../store';
import type { Api } from '../../bridge/api';
import { navigate, uiStore } from '../../store/ui-store';

export function openNotificationTarget(
  api: Api,
  store: ChatStore,
  accountId: string,
  target: NotificationTargetPayload,
): void {
  if (store.getState().activeAccountId !== accountId) {
    store.getState().setActiveAccount(accountId);
    // The previous account's views name its channels and users by id: history starts afresh.
    uiStore.setState({ previous: [] });
    void api.switchAccount({ accountId }).catch(() => undefined);
  }
  if (target.kind === 'topic')
    navigate({
      kind: 'narrow',
      narrow: topicNarrow(target.streamId, target.topic),
      anchor: target.messageId,
    });
  else if (target.kind === 'dm')
    navigate({ kind: 'narrow', narrow: dmNarrow(target.userIds), anchor: target.messageId });
}
