// The public server's own Markdown test cases (../shared/fixtures/zulip-markdown), run against the
// local server's renderer with a lookup over a real seeded realm, and a sample through HTTP.
// Zulip's test realm is mapped onto objects made here: the user "Zoe" with id 7 (users are created
// until that id comes up), the realm URL http://zulip.testserver, and the camo proxy of Zulip's
// test settings (https://external-content.zulipcdn.net/external_content/ with key "dummy").
// Linkify cases are expanded as the public server's test expands them: "%s" becomes a link to
// the given URL (http:// or mailto: added when it has no scheme).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { renderMessage } from '../../server/markdown/render';
import { databaseLookup } from '../../server/markdown/lookup';
import type { MentionLookup } from '../../server/markdown/mentions';
import type { AuthUser } from '../../server/realm/context';

interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
  backend_only_rendering?: boolean;
}

const fixture = JSON.parse(
  readFileSync(
    new URL('../../../shared/fixtures/zulip-markdown/markdown_test_cases.json', import.meta.url),
    'utf8',
  ),
) as { regular_tests: RegularCase[]; linkify_tests: Array<[string, string, string]> };

const REALM_URL = 'http://zulip.testserver';
const CAMO = { url: 'https://external-content.zulipcdn.net/external_content/', key: 'dummy' };

/** Cases skipped by name, with why (none today: every case of the fixture passes). */
const SKIPPED: Record<string, string> = {};

function expandLinkify([, reference, url]: [string, string, string]): string {
  if (!reference.includes('%s') || url === '') return reference;
  const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
  return reference.replace('%s', `<a href="${href}">${url}</a>`);
}

let server: TestServer;
let author: AuthUser;

function lookup(translateEmoticons: boolean): MentionLookup {
  return {
    ...databaseLookup(server.server.db, author),
    realmUrl: () => REALM_URL,
    imageProxy: () => CAMO,
    translateEmoticons: () => translateEmoticons,
  };
}

beforeAll(async () => {
  server = await startTestServer({ seed: 'empty', camo: CAMO });
  const owner = server.client('owner');
  // Zulip's test realm has "Zoe" as user 7; fill ids until the next user is 7.
  for (let n = 0; ; n++) {
    const next = (
      server.server.db.prepare('SELECT MAX(id) AS id FROM users').get() as { id: number }
    ).id;
    const isZoe = next + 1 === 7;
    const created = await owner.post('/users', {
      email: isZoe ? 'zoe@tributary.local' : `filler${n}@tributary.local`,
      password: 'zoe-password',
      full_name: isZoe ? 'Zoe' : `Filler ${n}`,
    });
    expect(created.status).toBe(200);
    if (isZoe) {
      expect(created.body.user_id).toBe(7);
      break;
    }
    if (next + 1 > 7) throw new Error('user ids are already past 7');
  }
  author = server.server.db
    .prepare('SELECT * FROM users WHERE email = ?')
    .get('owner@tributary.local') as AuthUser;
});

afterAll(async () => {
  await server?.close();
});

describe('public server markdown cases', () => {
  for (const testCase of fixture.regular_tests) {
    const reason = SKIPPED[testCase.name];
    if (reason) {
      it.skip(`${testCase.name} (${reason})`, () => {});
      continue;
    }
    it(testCase.name, () => {
      const rendered = renderMessage(testCase.input, lookup(testCase.translate_emoticons === true));
      expect(rendered.html).toBe(testCase.expected_output);
    });
  }
});

describe('public server linkify cases', () => {
  for (const testCase of fixture.linkify_tests) {
    it(JSON.stringify(testCase[0]), () => {
      expect(renderMessage(testCase[0], lookup(false)).html).toBe(expandLinkify(testCase));
    });
  }
});

describe('public server markdown cases through HTTP', () => {
  const byName = new Map(fixture.regular_tests.map((c) => [c.name, c]));
  // Cases that need no realm URL mapping (the HTTP server's realm URL is its own address).
  const overHttp = [
    'tex_inline',
    'tex_error_safe_script_tag',
    'spoilers_with_header_markdown',
    'fenced_complexly_nested_quote',
    'inline_image',
    'only_named_inline_video',
    'emoji_sequence_two',
    'zulip_emoji',
    'timestamp_timezone',
    'user_mention_with_no_narrow_link',
    'list_complexly_nested',
  ];
  for (const name of overHttp) {
    it(`${name} via POST /messages/render`, async () => {
      const testCase = byName.get(name)!;
      const res = await server.client('owner').post('/messages/render', {
        content: testCase.input,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.rendered).toBe(testCase.expected_output);
    });
  }

  it('translates emoticons of a sender who turned translate_emoticons on (send, then fetch)', async () => {
    const owner = server.client('owner');
    const testCase = byName.get('translate_emoticons')!;
    const send = () =>
      owner.post('/messages', { type: 'direct', to: [author.id], content: testCase.input });
    const before = await send();
    expect(before.status, before.text).toBe(200);
    const plain = (await owner.get(`/messages/${before.body.id}`)).body.message.content;
    expect(plain).toMatch(/^<p>:\) foo :\( bar /);

    const changed = await owner.patch('/settings', { translate_emoticons: true });
    expect(changed.status, changed.text).toBe(200);
    const after = await send();
    const fetched = (await owner.get(`/messages/${after.body.id}`)).body.message.content;
    expect(fetched).toBe(testCase.expected_output);
  });
});
