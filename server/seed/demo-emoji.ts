// The demo realm's custom emoji: two small pictures drawn in code (no image files in the repo),
// added the way POST /realm/emoji adds them, plus one reaction using each so clients show
// realm_emoji reactions from the start.
import type { RealmContext } from '../realm/context';
import { addRealmEmoji } from '../resources/realm/realm-emoji';
import { encodePng, type Rgba } from './png';
import type { DemoUser } from './demo';

const SIZE = 32;
const CLEAR: Rgba = [0, 0, 0, 0];

/** A blue disc crossed by a white wave: the project's river. */
function tributaryPixel(x: number, y: number): Rgba {
  const dx = x - SIZE / 2 + 0.5;
  const dy = y - SIZE / 2 + 0.5;
  if (dx * dx + dy * dy > (SIZE / 2 - 1) ** 2) return CLEAR;
  const wave = SIZE / 2 + Math.sin((x / SIZE) * 2 * Math.PI) * 4;
  return Math.abs(y - wave) < 2.5 ? [255, 255, 255, 255] : [33, 118, 214, 255];
}

/** A green rounded square with a white tick. */
function shipItPixel(x: number, y: number): Rgba {
  const inset = Math.max(0, 4 - Math.min(x, y, SIZE - 1 - x, SIZE - 1 - y));
  if (inset > 0 && (x < 4 || x > SIZE - 5) && (y < 4 || y > SIZE - 5)) {
    const cx = x < 4 ? 4 : SIZE - 5;
    const cy = y < 4 ? 4 : SIZE - 5;
    if ((x - cx) ** 2 + (y - cy) ** 2 > 16) return CLEAR;
  }
  const onShortStroke = x >= 7 && x <= 14 && Math.abs(y - (x + 8)) <= 2;
  const onLongStroke = x >= 13 && x <= 25 && Math.abs(y - (36 - x)) <= 2;
  return onShortStroke || onLongStroke ? [255, 255, 255, 255] : [46, 160, 67, 255];
}

export async function seedDemoEmoji(
  ctx: RealmContext,
  users: Record<string, DemoUser>,
  channels: Record<string, number>,
): Promise<void> {
  const emoji = [
    { name: 'tributary', author: users.owner, pixel: tributaryPixel, reactor: users.dev },
    { name: 'ship_it', author: users.dev, pixel: shipItPixel, reactor: users.emma },
  ];
  const latest = ctx.db
    .prepare<[number], { id: number }>(
      "SELECT MAX(id) AS id FROM messages WHERE channel_id = ? AND type = 'stream'",
    )
    .get(channels.general);
  for (const [index, item] of emoji.entries()) {
    const id = await addRealmEmoji(ctx, {
      name: item.name,
      authorId: item.author.user_id,
      image: encodePng(SIZE, SIZE, item.pixel),
    });
    if (latest?.id) {
      ctx.db
        .prepare(
          `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type, created_at)
           VALUES (?, ?, ?, ?, 'realm_emoji', ?)`,
        )
        .run(latest.id, item.reactor.user_id, item.name, String(id), Date.now() + index);
    }
  }
}
