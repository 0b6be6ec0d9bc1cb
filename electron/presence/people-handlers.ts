// Handlers of the people domain (shared/ipc/people.ts).
import { endpoints } from '../../shared/api/endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { peopleMethods } from '../../shared/ipc/people';
import type { AccountSession } from '../accounts/session';
import type { ActivityTracker } from './activity';

export type PeopleHandlers = Pick<MethodHandlers, keyof typeof peopleMethods>;

export function peopleHandlers(deps: {
  activity: ActivityTracker;
  /** The account's session, refusing calls while it is signed out. */
  signedInSession(accountId: string): AccountSession;
  sessions(): Iterable<AccountSession>;
}): PeopleHandlers {
  return {
    reportActivity: (report) => {
      // Back from idle: every account says so now, not at its next minute.
      if (deps.activity.notePageActivity(report)) {
        for (const session of deps.sessions()) void session.presence?.reportNow();
      }
      return null;
    },
    getPresence: ({ accountId }) => deps.signedInSession(accountId).presence?.current() ?? null,
    muteUser: ({ accountId, userId }) =>
      deps.signedInSession(accountId).client.call(endpoints.muteUser, { muted_user_id: userId }),
    unmuteUser: ({ accountId, userId }) =>
      deps.signedInSession(accountId).client.call(endpoints.unmuteUser, { muted_user_id: userId }),
  };
}
