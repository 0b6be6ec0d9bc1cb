// Sending a widget's action: a "widget" submessage through main (POST /submessage). The widget
// changes when the server's submessage event comes back, as in the web app, so every reader (and
// this one) sees the same order of votes and edits.
import { useRef, useState } from 'react';
import { api } from '../../../bridge/api';

export function sendWidgetEvent(
  accountId: string,
  messageId: number,
  data: object,
): Promise<unknown> {
  return api().sendSubmessage({
    accountId,
    messageId,
    msgType: 'widget',
    content: JSON.stringify(data),
  });
}

/**
 * A widget's sender: `send` posts one action and keeps the server's refusal to show; `nextIdx`
 * gives an index above any this widget sent whose echo has not arrived yet, as the web app counts
 * its own options and tasks locally.
 */
export function useWidgetSender(accountId: string, messageId: number) {
  const [error, setError] = useState<string | null>(null);
  const lastSentIdx = useRef(-1);
  const nextIdx = (fromState: number) => {
    const idx = Math.max(fromState, lastSentIdx.current + 1);
    lastSentIdx.current = idx;
    return idx;
  };
  const send = (data: object | null) => {
    if (!data) return;
    setError(null);
    sendWidgetEvent(accountId, messageId, data).catch((e: unknown) => {
      setError(e instanceof Error ? e.message : String(e));
    });
  };
  return { send, nextIdx, error };
}
