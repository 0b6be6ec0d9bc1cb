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

const HIGHLIGHTER = 'needs the highlighter (server/markdown/highlight)';

/** Cases skipped by name, with why. */
const SKIPPED: Record<string, string> = {
  codeblock_hilite_python: HIGHLIGHTER,
  codeblock_canonicalize_lang_alias: HIGHLIGHTER,
  codeblock_hilite_shebang_feature_no_path_1: HIGHLIGHTER,
  codeblock_hilite_shebang_feature_no_path_2: HIGHLIGHTER,
  codeblock_hilite_shebang_feature_with_path: HIGHLIGHTER,
  codeblock_hilite_startinline_php: HIGHLIGHTER,
  tex_fenced_tex: HIGHLIGHTER,
  tex_fenced_latex: HIGHLIGHTER,
};

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
