// The administration endpoints behind Settings > Organization beyond what realm-config.test.ts and
// realm-emoji.test.ts cover: editing and reordering linkifiers (and the order rendering follows),
// the deprecated GET /realm/filters, and custom profile fields (list, create for every type, edit,
// reorder, delete) with their custom_profile_fields events and refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

const capable = { client_capabilities: { linkifier_url_template: true } };

async function addLinkifier(pattern: string, url_template: string): Promise<number> {
  const res = await server.client('admin').post('/realm/filters', { pattern, url_template });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

async function linkifierIds(): Promise<number[]> {
  const res = await server.client('dev').get('/realm/linkifiers');
  return (res.body.linkifiers as Array<{ id: number }>).map((l) => l.id);
}

describe('linkifiers: edit and reorder', () => {
  it('edits a linkifier in place and announces the list', async () => {
    const id = await addLinkifier('BUG-(?P<id>[0-9]+)', 'https://bugs.example/{id}');
    const q = await registerQueue(server.client('dev'), {
      event_types: ['realm_linkifiers'],
      ...capable,
    });
    const res = await server.client('admin').patch(`/realm/filters/${id}`, {
      pattern: 'BUG-(?P<id>[0-9]+)',
      url_template: 'https://tracker.example/bug/{id}',
      reverse_template: 'BUG-{id}',
      example_input: 'BUG-42',
    });
    expect(res.status, res.text).toBe(200);
    const event = await q.waitFor((e) => e.type === 'realm_linkifiers');
    expect(event.realm_linkifiers.find((l: { id: number }) => l.id === id)).toEqual({
      id,
      pattern: 'BUG-(?P<id>[0-9]+)',
      url_template: 'https://tracker.example/bug/{id}',
      reverse_template: 'BUG-{id}',
      alternative_url_templates: [],
      example_input: 'BUG-42',
    });
  });

  it('refuses edits that break the template rules, unknown ids and members', async () => {
    const id = await addLinkifier('TASK-(?P<n>[0-9]+)', 'https://tasks.example/{n}');
    const admin = server.client('admin');
    const refusals: Array<[Record<string, string>, string]> = [
      [
        { pattern: 'TASK-(?P<n>[0-9]+)', url_template: 'https://tasks.example/{id}' },
        'Group "id" in URL template is not present in linkifier pattern.',
      ],
      [
        {
          pattern: 'TASK-(?P<n>[0-9]+)',
          url_template: 'https://tasks.example/{n}',
          example_input: 'task 5',
        },
        'example_input does not match the linkifier pattern',
      ],
      [
        {
          pattern: 'TASK-(?P<n>[0-9]+)',
          url_template: 'https://tasks.example/{n}',
          reverse_template: 'T{n}',
          example_input: 'TASK-5',
        },
        "Reverse template output 'T5' does not match example_input 'TASK-5'",
      ],
    ];
    for (const [params, msg] of refusals) {
      const res = await admin.patch(`/realm/filters/${id}`, params);
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg });
    }
    const unknown = await admin.patch('/realm/filters/999999', {
      pattern: 'X(?P<a>1)',
      url_template: 'https://x.example/{a}',
    });
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Linkifier not found.' });
    const member = await server.client('dev').patch(`/realm/filters/${id}`, {
      pattern: 'TASK-(?P<n>[0-9]+)',
      url_template: 'https://evil.example/{n}',
    });
    expect(member.status).toBe(400);
    expect(member.body.msg).toBe('Must be an organization administrator');
    const stored = (await admin.get('/realm/linkifiers')).body.linkifiers.find(
      (l: { id: number }) => l.id === id,
    );
    expect(stored.url_template).toBe('https://tasks.example/{n}');
  });

  it('reorders all linkifiers; rendering tries them in the new order', async () => {
    const wide = await addLinkifier('#(?P<id>[0-9]+)', 'https://wide.example/{id}');
    const narrow = await addLinkifier('#(?P<id>7[0-9]*)', 'https://narrow.example/{id}');
    const render = async () =>
      (await server.client('dev').post('/messages/render', { content: 'see #77' })).body
        .rendered as string;
    expect(await render()).toContain('https://wide.example/77');

    const ids = await linkifierIds();
    const reordered = [narrow, ...ids.filter((id) => id !== narrow)];
    const q = await registerQueue(server.client('emma'), {
      event_types: ['realm_linkifiers'],
      ...capable,
    });
    const res = await server
      .client('admin')
      .patch('/realm/linkifiers', { ordered_linkifier_ids: reordered });
    expect(res.status, res.text).toBe(200);
    const event = await q.waitFor((e) => e.type === 'realm_linkifiers');
    expect(event.realm_linkifiers.map((l: { id: number }) => l.id)).toEqual(reordered);
    expect(await linkifierIds()).toEqual(reordered);
    expect(await render()).toContain('https://narrow.example/77');

    const legacy = await server.client('dev').get('/realm/filters');
    expect(legacy.body.filters[0]).toEqual([
      '#(?P<id>7[0-9]*)',
      'https://narrow.example/{id}',
      narrow,
    ]);
    expect(legacy.body.filters.map((f: unknown[]) => f[2])).toContain(wide);
  });

  it('refuses duplicated, partial and members’ orderings', async () => {
    const ids = await linkifierIds();
    const admin = server.client('admin');
    const dup = await admin.patch('/realm/linkifiers', {
      ordered_linkifier_ids: [...ids, ids[0]],
    });
    expect(dup.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'The ordered list must not contain duplicated linkifiers',
    });
    const partial = await admin.patch('/realm/linkifiers', {
      ordered_linkifier_ids: ids.slice(1),
    });
    expect(partial.body.msg).toBe(
      'The ordered list must enumerate all existing linkifiers exactly once',
    );
    const member = await server
      .client('dev')
      .patch('/realm/linkifiers', { ordered_linkifier_ids: [...ids].reverse() });
    expect(member.status).toBe(400);
    expect(await linkifierIds()).toEqual(ids);
  });
});

interface Field {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
}

async function listFields(who: 'dev' | 'guest' | 'admin' = 'dev'): Promise<Field[]> {
  const res = await server.client(who).get('/realm/profile_fields');
  expect(res.status).toBe(200);
  return res.body.custom_fields as Field[];
}

describe('custom profile fields', () => {
  it('lists the fields to everyone, in register order', async () => {
    const listed = await listFields('guest');
    const registered = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['custom_profile_fields'] });
    expect(listed).toEqual(registered.body.custom_profile_fields);
    expect(listed.length).toBeGreaterThan(0);
    const orders = listed.map((field) => field.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('creates a field of every type with a custom_profile_fields event', async () => {
    const q = await registerQueue(server.client('dev'), { event_types: ['custom_profile_fields'] });
    const admin = server.client('admin');
    const options = { a: { text: 'Berlin', order: '1' }, b: { text: 'Cairo', order: '2' } };
    const created: Array<[Record<string, unknown>, Partial<Field>]> = [
      [
        { name: 'Desk', field_type: 1, hint: 'Floor and desk' },
        { type: 1, field_data: '' },
      ],
      [{ name: 'About', field_type: 2 }, { type: 2 }],
      [
        { name: 'Office', field_type: 3, field_data: options },
        { type: 3, field_data: JSON.stringify(options) },
      ],
      [
        { name: 'Started', field_type: 4, required: true },
        { type: 4, required: true },
      ],
      [{ name: 'Homepage', field_type: 5 }, { type: 5 }],
      [{ name: 'Manager', field_type: 6, editable_by_user: false }, { editable_by_user: false }],
      [
        { field_type: 7, field_data: { subtype: 'github' } },
        { name: 'GitHub username', field_data: '{"subtype":"github"}' },
      ],
      [
        {
          name: 'Wiki user',
          field_type: 7,
          field_data: { subtype: 'custom', url_pattern: 'https://wiki.example/u/%(username)s' },
        },
        { name: 'Wiki user', type: 7 },
      ],
      [{ name: 'Said as', field_type: 8 }, { type: 8 }],
    ];
    for (const [params, expected] of created) {
      const res = await admin.post('/realm/profile_fields', params);
      expect(res.status, res.text).toBe(200);
      const event = await q.waitFor((e) => e.type === 'custom_profile_fields');
      const field = (event.fields as Field[]).find((f) => f.id === res.body.id);
      expect(field).toMatchObject(expected);
      expect(Object.keys(event).sort()).toEqual(['fields', 'id', 'type']);
    }
    const orders = (await listFields()).map((f) => f.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('refuses invalid fields and non-administrators', async () => {
    const admin = server.client('admin');
    // The demo realm shows two fields in the summary already: free a place, so the type is judged.
    const title = (await listFields()).find((f) => f.name === 'Title')!;
    await admin.patch(`/realm/profile_fields/${title.id}`, { display_in_profile_summary: false });
    const before = await listFields();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ name: '  ', field_type: 1 }, 'Label cannot be blank.'],
      [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
      [{ name: 'Hinted', field_type: 1, hint: 'h'.repeat(81) }, 'hint is too long'],
      [{ name: 'Odd', field_type: 42 }, 'Invalid field type.'],
      [
        { name: 'Empty list', field_type: 3, field_data: {} },
        'Field must have at least one choice.',
      ],
      [
        {
          name: 'Twice',
          field_type: 3,
          field_data: { a: { text: 'Same', order: '1' }, b: { text: 'Same', order: '2' } },
        },
        'Field must not have duplicate choices.',
      ],
      [{ name: 'Site', field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external'],
      [
        { name: 'Custom', field_type: 7, field_data: { subtype: 'custom' } },
        'Custom external account must define URL pattern',
      ],
      [{ name: 'Desk', field_type: 1 }, 'A field with that label already exists.'],
      [
        { name: 'Long summary', field_type: 2, display_in_profile_summary: true },
        'Field type not supported for display in profile summary.',
      ],
    ];
    for (const [params, msg] of refusals) {
      const res = await admin.post('/realm/profile_fields', params);
      expect(res.status, msg).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.msg).toContain(msg);
    }
    const member = await server.client('dev').post('/realm/profile_fields', {
      name: 'Sneaky',
      field_type: 1,
    });
    expect(member.status).toBe(400);
    expect(member.body.msg).toBe('Must be an organization administrator');
    expect(await listFields()).toEqual(before);
  });

  it('edits a field; a known site’s label cannot change', async () => {
    const fields = await listFields();
    const office = fields.find((f) => f.name === 'Office')!;
    const admin = server.client('admin');
    const q = await registerQueue(server.client('emma'), {
      event_types: ['custom_profile_fields'],
    });
    const chosen = async (who: 'dev' | 'emma') =>
      (
        await server
          .client(who)
          .get(`/users/${server.users[who].user_id}`, { include_custom_profile_fields: true })
      ).body.user.profile_data?.[String(office.id)]?.value;
    for (const [who, value] of [
      ['dev', 'a'],
      ['emma', 'b'],
    ] as const) {
      const set = await server
        .client(who)
        .patch('/users/me/profile_data', { data: [{ id: office.id, value }] });
      expect(set.status, set.text).toBe(200);
    }
    const options = { a: { text: 'Berlin', order: '1' }, c: { text: 'Lima', order: '2' } };
    const res = await admin.patch(`/realm/profile_fields/${office.id}`, {
      name: 'Home office',
      hint: 'Where you usually work',
      field_data: options,
      required: true,
    });
    expect(res.status, res.text).toBe(200);
    const event = await q.waitFor((e) => e.type === 'custom_profile_fields');
    expect((event.fields as Field[]).find((f) => f.id === office.id)).toMatchObject({
      name: 'Home office',
      hint: 'Where you usually work',
      field_data: JSON.stringify(options),
      required: true,
      type: 3,
    });
    // Cairo ('b') is gone: Emma's choice goes with it, Dev's Berlin stays.
    expect(await chosen('dev')).toBe('a');
    expect(await chosen('emma')).toBeUndefined();
    const github = fields.find((f) => f.name === 'GitHub username' && f.order > office.order)!;
    const renamed = await admin.patch(`/realm/profile_fields/${github.id}`, { name: 'Code' });
    expect(renamed.body.msg).toBe('Default custom field cannot be updated.');
    const summary = await admin.patch(`/realm/profile_fields/${github.id}`, {
      display_in_profile_summary: true,
    });
    expect(summary.status, summary.text).toBe(200);
    const unknown = await admin.patch('/realm/profile_fields/99999', { name: 'Nope' });
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Field id 99999 not found.' });
    const member = await server
      .client('dev')
      .patch(`/realm/profile_fields/${office.id}`, { name: 'Mine now' });
    expect(member.status).toBe(400);
    expect((await listFields()).find((f) => f.id === office.id)?.name).toBe('Home office');
  });

  it('keeps at most two fields in the profile summary', async () => {
    const fields = await listFields();
    const inSummary = fields.filter((f) => f.display_in_profile_summary).length;
    expect(inSummary).toBe(2);
    const desk = fields.find((f) => f.name === 'Desk')!;
    const res = await server
      .client('admin')
      .patch(`/realm/profile_fields/${desk.id}`, { display_in_profile_summary: true });
    expect(res.body.msg).toBe(
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
  });

  it('reorders all fields and refuses an incomplete order', async () => {
    const ids = (await listFields()).map((f) => f.id);
    const reversed = [...ids].reverse();
    const admin = server.client('admin');
    const q = await registerQueue(server.client('dev'), { event_types: ['custom_profile_fields'] });
    const res = await admin.patch('/realm/profile_fields', { order: reversed });
    expect(res.status, res.text).toBe(200);
    const event = await q.waitFor((e) => e.type === 'custom_profile_fields');
    expect((event.fields as Field[]).map((f) => f.id)).toEqual(reversed);
    expect((await listFields()).map((f) => f.id)).toEqual(reversed);
    const partial = await admin.patch('/realm/profile_fields', { order: reversed.slice(1) });
    expect(partial.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid order mapping.' });
    const member = await server.client('dev').patch('/realm/profile_fields', { order: ids });
    expect(member.status).toBe(400);
    expect((await listFields()).map((f) => f.id)).toEqual(reversed);
  });

  it('deletes a field with its values', async () => {
    const admin = server.client('admin');
    const desk = (await listFields()).find((f) => f.name === 'Desk')!;
    const set = await server
      .client('dev')
      .patch('/users/me/profile_data', { data: [{ id: desk.id, value: '3rd floor' }] });
    expect(set.status, set.text).toBe(200);
    const member = await server.client('dev').delete(`/realm/profile_fields/${desk.id}`);
    expect(member.status).toBe(400);
    const q = await registerQueue(server.client('dev'), { event_types: ['custom_profile_fields'] });
    const res = await admin.delete(`/realm/profile_fields/${desk.id}`);
    expect(res.status, res.text).toBe(200);
    const event = await q.waitFor((e) => e.type === 'custom_profile_fields');
    expect((event.fields as Field[]).map((f) => f.id)).not.toContain(desk.id);
    const me = await server
      .client('dev')
      .get(`/users/${server.users.dev.user_id}`, { include_custom_profile_fields: true });
    expect(Object.keys(me.body.user.profile_data ?? {})).not.toContain(String(desk.id));
    const again = await admin.delete(`/realm/profile_fields/${desk.id}`);
    expect(again.body.msg).toBe(`Field id ${desk.id} not found.`);
  });
});
