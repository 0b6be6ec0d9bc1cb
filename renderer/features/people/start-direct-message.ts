// "Send direct message" from a person's card or profile: their conversation, with the compose box
// open on it (it starts closed), as in the public web app.
import { dmNarrow } from '../../../shared/narrow';
import { navigate, requestCompose } from '../../store/ui-store';

export function startDirectMessage(userId: number): void {
  navigate({ kind: 'narrow', narrow: dmNarrow([userId]) });
  // Taken by that view's compose box as it shows the conversation.
  requestCompose('reply');
}
