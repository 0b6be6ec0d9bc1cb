// Regenerates shared/emoji/zulip-emoji-codes.json from the public server's emoji name table
// (../shared/fixtures/zulip-emoji/emoji_codes.json, Apache License 2.0; see shared/emoji/NOTICE.md).
// The app needs the table at run time (the local server accepts exactly these names, and the
// renderer's picker offers them), so a checked-in copy is generated from the fixture and a test
// keeps the two equal. Usage: npx tsx scripts/gen-emoji-table.ts [path/to/emoji_codes.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const source =
  process.argv[2] ?? path.join(root, '..', 'shared', 'fixtures', 'zulip-emoji', 'emoji_codes.json');
const target = path.join(root, 'shared', 'emoji', 'zulip-emoji-codes.json');

const table = JSON.parse(readFileSync(source, 'utf8')) as Record<string, unknown>;
const keys = ['name_to_codepoint', 'codepoint_to_name', 'emoticon_conversions', 'emoji_catalog'];
const out: Record<string, unknown> = {};
for (const key of keys) {
  if (!(key in table)) throw new Error(`${source} has no ${key}`);
  out[key] = table[key];
}
writeFileSync(target, JSON.stringify(out) + '\n');
console.log(`wrote ${path.relative(root, target)}`);
