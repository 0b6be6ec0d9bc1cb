// The admin-extras methods (custom emoji, linkifiers, playgrounds, allowed domains, profile fields)
// through main's handlers against the real local realm server: a custom emoji image goes in by
// intake token as multipart, every call reaches the server with its parameter names, and the
// server's refusals come back with their code and message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerAndMember } from './support/owner-and-member';
import { encodePng } from '../../server/seed/png';

const session = ownerAndMember({
  who: 'admin',
  params: {
    event_types: ['realm_emoji', 'realm_linkifiers', 'custom_profile_fields', 'realm_domains'],
    client_capabilities: { linkifier_url_template: true },
  },
});
const ownerCalls = () => session.owner.services.handlers;

describe('admin-extras methods through main', () => {
  it('uploads a custom emoji from an intake token and forgets the token', async () => {
    const path = join(session.dir, 'wave.png');
    writeFileSync(
      path,
      encodePng(4, 4, () => [10, 200, 30, 255]),
    );
    const { token } = session.owner.services.intake.register(path);
    await ownerCalls().addCustomEmoji({
      accountId: session.owner.accountId,
      name: 'wave_hello',
      token,
    });
    const event = await session.queue.waitFor((e) => e.type === 'realm_emoji');
    expect(
      Object.values(event.realm_emoji as Record<string, { name: string }>).map((e) => e.name),
    ).toContain('wave_hello');
    expect(session.owner.services.intake.get(token)).toBeUndefined();
    await expect(
      ownerCalls().addCustomEmoji({ accountId: session.owner.accountId, name: 'again', token }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Pick the image again' });
  });

  it('refuses an image over 5 MiB before sending it', async () => {
    const path = join(session.dir, 'huge.png');
    writeFileSync(path, Buffer.alloc(5 * 1024 * 1024 + 1));
    const { token } = session.owner.services.intake.register(path);
    await expect(
      ownerCalls().addCustomEmoji({ accountId: session.owner.accountId, name: 'huge', token }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Uploaded file is larger than the allowed limit of 5 MiB',
    });
    expect(session.owner.services.intake.get(token)).toBeUndefined();
  });

  it('adds, edits and reorders linkifiers with the server’s names', async () => {
    const a = await ownerCalls().addLinkifier({
      accountId: session.owner.accountId,
      linkifier: {
        pattern: 'A-(?P<n>[0-9]+)',
        urlTemplate: 'https://a.example/{n}',
        reverseTemplate: 'A-{n}',
        exampleInput: 'A-1',
      },
    });
    const b = await ownerCalls().addLinkifier({
      accountId: session.owner.accountId,
      linkifier: { pattern: 'B-(?P<n>[0-9]+)', urlTemplate: 'https://b.example/{n}' },
    });
    await ownerCalls().updateLinkifier({
      accountId: session.owner.accountId,
      linkifierId: b.id,
      linkifier: { pattern: 'B-(?P<n>[0-9]+)', urlTemplate: 'https://b2.example/{n}' },
    });
    await ownerCalls().reorderLinkifiers({
      accountId: session.owner.accountId,
      orderedIds: [b.id, a.id],
    });
    const listed = (await session.realm.client('dev').get('/realm/linkifiers')).body.linkifiers;
    expect(listed).toEqual([
      expect.objectContaining({ id: b.id, url_template: 'https://b2.example/{n}' }),
      expect.objectContaining({ id: a.id, reverse_template: 'A-{n}', example_input: 'A-1' }),
    ]);
  });

  it('creates, edits, reorders and deletes a profile field', async () => {
    const { id } = await ownerCalls().createProfileField({
      accountId: session.owner.accountId,
      field: {
        type: 3,
        name: 'Shift',
        hint: 'When you work',
        fieldData: { early: { text: 'Early', order: '1' }, late: { text: 'Late', order: '2' } },
        required: true,
      },
    });
    await ownerCalls().updateProfileField({
      accountId: session.owner.accountId,
      fieldId: id,
      changes: { name: 'Work shift', editableByUser: false },
    });
    const fields = (await session.realm.client('dev').get('/realm/profile_fields')).body
      .custom_fields as Array<{ id: number; name: string; editable_by_user: boolean }>;
    expect(fields.find((f) => f.id === id)).toMatchObject({
      name: 'Work shift',
      editable_by_user: false,
      required: true,
    });
    const reversed = fields.map((f) => f.id).reverse();
    await ownerCalls().reorderProfileFields({
      accountId: session.owner.accountId,
      orderedIds: reversed,
    });
    await ownerCalls().deleteProfileField({ accountId: session.owner.accountId, fieldId: id });
    const after = (await session.realm.client('dev').get('/realm/profile_fields')).body
      .custom_fields as Array<{ id: number }>;
    expect(after.map((f) => f.id)).toEqual(reversed.filter((f) => f !== id));
  });

  it('passes on the server’s refusal of a member', async () => {
    const calls = session.member.services.handlers;
    await expect(
      calls.addPlayground({
        accountId: session.member.accountId,
        name: 'Go',
        language: 'Go',
        urlTemplate: 'https://go.example/?c={code}',
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Must be an organization administrator',
    });
    await expect(
      calls.addRealmDomain({
        accountId: session.member.accountId,
        domain: 'x.example',
        allowSubdomains: false,
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Must be an organization owner' });
    await expect(
      calls.deleteCustomEmoji({ accountId: session.member.accountId, name: 'wave_hello' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Must be an organization administrator or emoji author',
    });
  });
});
