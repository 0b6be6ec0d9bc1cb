// The organization icon methods through main's handlers against the real local realm server: the
// image goes in by intake token as multipart (the token is spent), the answer names the served
// icon, everyone's queue hears the realm update_dict event, removal returns to the default, and a
// member's call comes back with the server's refusal.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MainHarness } from './support/harness';
import { ownerAndMember } from './support/owner-and-member';
import { encodePng } from '../../server/seed/png';

const session = ownerAndMember({ who: 'emma', params: { event_types: ['realm'] } });

function chosenImage(harness: MainHarness, name: string): string {
  const path = join(session.dir, name);
  writeFileSync(
    path,
    encodePng(30, 20, () => [10, 120, 200, 255]),
  );
  return harness.services.intake.register(path).token;
}

describe('organization icon methods through main', () => {
  it('uploads from an intake token, then removes it', async () => {
    const token = chosenImage(session.owner, 'icon.png');
    const { iconUrl } = await session.owner.services.handlers.uploadRealmIcon({
      accountId: session.owner.accountId,
      token,
    });
    expect(iconUrl).toMatch(/^\/user_avatars\/1\/realm\/icon\.png\?version=\d+$/);
    expect(session.owner.services.intake.get(token)).toBeUndefined();
    const uploaded = await session.queue.waitFor(
      (e) => e.type === 'realm' && e.property === 'icon',
    );
    expect(uploaded.data).toEqual({ icon_url: iconUrl, icon_source: 'U' });
    const served = await fetch(session.realm.url + iconUrl);
    expect(served.headers.get('content-type')).toBe('image/png');

    const removed = await session.owner.services.handlers.deleteRealmIcon({
      accountId: session.owner.accountId,
    });
    expect(removed.iconUrl).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    const event = await session.queue.waitFor((e) => e.type === 'realm' && e.property === 'icon');
    expect(event.data).toEqual({ icon_url: removed.iconUrl, icon_source: 'G' });
  });

  it('brings back the server’s refusal to a member, and spends the token anyway', async () => {
    const token = chosenImage(session.member, 'mine.png');
    await expect(
      session.member.services.handlers.uploadRealmIcon({
        accountId: session.member.accountId,
        token,
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Must be an organization administrator',
    });
    expect(session.member.services.intake.get(token)).toBeUndefined();
    await expect(
      session.member.services.handlers.deleteRealmIcon({ accountId: session.member.accountId }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Must be an organization administrator',
    });
  });
});
