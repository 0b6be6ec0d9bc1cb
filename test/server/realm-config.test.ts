// Realm configuration: linkifiers (4.18), code playgrounds (4.20), allowed domains (4.21).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('linkifiers', () => {
  it('adds a linkifier with named groups, sent to capable clients only', async () => {
    const capable = await registerQueue(server.client('dev'), {
      event_types: ['realm_linkifiers'],
      client_capabilities: { linkifier_url_template: true },
    });
    const legacy = await registerQueue(server.client('dev'), { event_types: ['realm_linkifiers'] });
    const res = await server.client('admin').post('/realm/filters', {
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://tracker.example/issues/{id}',
      reverse_template: '#{id}',
      example_input: '#1234',
      alternative_url_templates: ['https://tracker.example/i/{id}'],
    });
    expect(res.status).toBe(200);
    const [event] = await capable.next();
    expect(event).toMatchObject({
      type: 'realm_linkifiers',
      realm_linkifiers: [
        {
          id: res.body.id,
          pattern: '#(?P<id>[0-9]+)',
          url_template: 'https://tracker.example/issues/{id}',
          reverse_template: '#{id}',
          example_input: '#1234',
          alternative_url_templates: ['https://tracker.example/i/{id}'],
        },
      ],
    });
    expect(await legacy.poll()).toEqual([]);
    const listed = await server.client('guest').get('/realm/linkifiers');
    expect(listed.body.linkifiers.map((l: { id: number }) => l.id)).toEqual([res.body.id]);
    const state = await server.client('dev').post('/register', {
      fetch_event_types: ['realm_linkifiers'],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(state.body.realm_linkifiers).toHaveLength(1);
    const legacyState = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['realm_linkifiers'] });
    expect(legacyState.body.realm_linkifiers).toEqual([]);
  });

  it('rejects invalid linkifiers and non-administrators, storing nothing', async () => {
    const admin = server.client('admin');
    const before = (await admin.get('/realm/linkifiers')).body.linkifiers.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pattern: '(?P<id>[0-9', url_template: 'https://x/{id}' }, 'Invalid linkifier pattern'],
      [{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id' }, 'Invalid URL template.'],
      [
        { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{other}' },
        'Group "other" in URL template',
      ],
      [
        { pattern: '#(?P<id>[0-9]+)(?P<x>a)', url_template: 'https://x/{id}' },
        'Group "x" in linkifier pattern',
      ],
      [
        {
          pattern: '#(?P<id>[0-9]+)',
          url_template: 'https://x/{id}',
          reverse_template: 'issue {id}',
          example_input: '#5',
        },
        'does not match example_input',
      ],
      [
        { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/issues/{id}' },
        'already exists',
      ],
    ];
    for (const [params, msg] of cases) {
      const res = await admin.post('/realm/filters', params);
      expect(res.status, msg).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.msg).toContain(msg);
    }
    const member = await server.client('dev').post('/realm/filters', {
      pattern: 'X(?P<n>[0-9]+)',
      url_template: 'https://x/{n}',
    });
    expect(member.status).toBe(400);
    expect((await admin.get('/realm/linkifiers')).body.linkifiers).toHaveLength(before);
  });

  it('deletes a linkifier; unknown ids are a BAD_REQUEST', async () => {
    const created = await server.client('admin').post('/realm/filters', {
      pattern: 'PR(?P<n>[0-9]+)',
      url_template: 'https://code.example/pull/{n}',
    });
    expect((await server.client('admin').delete(`/realm/filters/${created.body.id}`)).status).toBe(
      200,
    );
    const again = await server.client('admin').delete(`/realm/filters/${created.body.id}`);
    expect(again.status).toBe(400);
    const ids = (await server.client('admin').get('/realm/linkifiers')).body.linkifiers.map(
      (l: { id: number }) => l.id,
    );
    expect(ids).not.toContain(created.body.id);
  });
});

describe('code playgrounds', () => {
  it('adds and removes playgrounds with realm_playgrounds events', async () => {
    const q = await registerQueue(server.client('emma'), { event_types: ['realm_playgrounds'] });
    const res = await server.client('admin').post('/realm/playgrounds', {
      name: 'Rust Playground',
      pygments_language: 'rust',
      url_template: 'https://play.example/?code={code}',
    });
    expect(res.status).toBe(200);
    const [event] = await q.next();
    expect(event.realm_playgrounds).toEqual([
      {
        id: res.body.id,
        name: 'Rust Playground',
        pygments_language: 'rust',
        url_template: 'https://play.example/?code={code}',
      },
    ]);
    expect((await server.client('admin').delete(`/realm/playgrounds/${res.body.id}`)).status).toBe(
      200,
    );
    const [removed] = await q.next();
    expect(removed.realm_playgrounds).toEqual([]);
  });

  it('needs exactly one variable named code, a name, a language and an administrator', async () => {
    const admin = server.client('admin');
    for (const url_template of [
      'https://play.example/',
      'https://play.example/{code}/{x}',
      'https://p/{source}',
      'https://p/{code',
    ]) {
      const res = await admin.post('/realm/playgrounds', {
        name: 'P',
        lexer_language: 'python',
        url_template,
      });
      expect(res.status, url_template).toBe(400);
    }
    expect(
      (
        await admin.post('/realm/playgrounds', {
          name: ' ',
          lexer_language: 'python',
          url_template: 'https://p/{code}',
        })
      ).status,
    ).toBe(400);
    expect(
      (await admin.post('/realm/playgrounds', { name: 'P', url_template: 'https://p/{code}' }))
        .body,
    ).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'pygments_language',
    });
    // The spec's neutral name for the parameter is accepted too.
    const neutral = await admin.post('/realm/playgrounds', {
      name: 'Neutral',
      lexer_language: 'python',
      url_template: 'https://p/{code}',
    });
    expect(neutral.status, neutral.text).toBe(200);
    expect((await admin.delete(`/realm/playgrounds/${neutral.body.id}`)).status).toBe(200);
    const member = await server.client('dev').post('/realm/playgrounds', {
      name: 'P',
      lexer_language: 'python',
      url_template: 'https://p/{code}',
    });
    expect(member.status).toBe(400);
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['realm_playgrounds'] });
    expect(state.body.realm_playgrounds).toEqual([]);
  });
});

describe('allowed domains', () => {
  it('lets owners add, change and remove domains with realm_domains events', async () => {
    const q = await registerQueue(server.client('dev'), { event_types: ['realm_domains'] });
    const res = await server
      .client('owner')
      .post('/realm/domains', { domain: 'Example.COM', allow_subdomains: true });
    expect(res.status).toBe(200);
    expect(res.body.new_domain).toEqual([expect.any(Number), 'example.com']);
    expect((await q.next())[0]).toMatchObject({
      op: 'add',
      realm_domain: { domain: 'example.com', allow_subdomains: true },
    });
    await server.client('owner').patch('/realm/domains/example.com', { allow_subdomains: false });
    expect((await q.next())[0]).toMatchObject({
      op: 'change',
      realm_domain: { allow_subdomains: false },
    });
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['realm_domains'] });
    expect(state.body.realm_domains).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
    await server.client('owner').delete('/realm/domains/example.com');
    expect((await q.next())[0]).toMatchObject({ op: 'remove', domain: 'example.com' });
  });

  it('refuses administrators (owners only), duplicates and invalid domains', async () => {
    await server
      .client('owner')
      .post('/realm/domains', { domain: 'tributary.local', allow_subdomains: false });
    const admin = await server
      .client('admin')
      .post('/realm/domains', { domain: 'admin.example', allow_subdomains: false });
    expect(admin.status).toBe(400);
    const duplicate = await server
      .client('owner')
      .post('/realm/domains', { domain: 'TRIBUTARY.local', allow_subdomains: true });
    expect(duplicate.status).toBe(400);
    for (const domain of ['', 'not a domain', '-bad.example', 'a..b']) {
      const res = await server
        .client('owner')
        .post('/realm/domains', { domain, allow_subdomains: false });
      expect(res.status, domain).toBe(400);
    }
    const missing = await server.client('owner').delete('/realm/domains/nowhere.example');
    expect(missing.status).toBe(400);
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['realm_domains'] });
    expect(state.body.realm_domains).toEqual([
      { domain: 'tributary.local', allow_subdomains: false },
    ]);
  });
});
