// Message bodies for the render benchmark's rich-content situation, rendered by the real local realm
// server: the bench starts it on 127.0.0.1 with a fresh demo realm, uploads an image, sends one
// message per template over HTTP and reads the HTML back from GET /messages, so the list paints
// exactly what the server stores (emoji spans, KaTeX, Pygments-style tokens, spoilers, quotes,
// times, mentions, image previews). The templates vary the text by index so rows are not copies.
import { startTestServer } from '../../test/support/server';
import { encodePng } from '../../server/seed/png';

const PYTHON = [
  'def speak(self, words):',
  '    """Say something."""',
  '    for word in words.split():',
  '        print(f"{self.name}: {word}", end=" ")',
  '    return len(words)',
];

const TYPESCRIPT = [
  'export async function load(id: number): Promise<Message[]> {',
  "  const res = await fetch(`/api/v1/messages?anchor=${id}`, { method: 'GET' });",
  '  if (!res.ok) throw new Error(`HTTP ${res.status}`);',
  '  return (await res.json()).messages as Message[];',
  '}',
];

function templates(imagePath: string): Array<(n: number) => string> {
  return [
    (n) => `Good morning :sunny: :coffee: — release ${n} is out :tada: :rocket:`,
    (n) => `Inline math $$e^{i\\pi} + ${n} = ${n - 1}$$ and the sum $$\\sum_{k=1}^{${n}} k^2$$`,
    (n) => `\`\`\`python\n${PYTHON.join('\n')}\n# run ${n}\n\`\`\``,
    (n) => `\`\`\`spoiler Ending of chapter ${n}\nThe butler did it :knife:\n\`\`\``,
    (n) => `\`\`\`quote\nShip it when it's ready (message ${n}).\n\`\`\`\nAgreed :+1:`,
    (n) =>
      `Standup moved to <time:2026-11-${String((n % 28) + 1).padStart(2, '0')}T09:30:00Z> :calendar:`,
    (n) => `@**Olivia Owner** can you look at #**general>topic ${n}**? ~~old~~ **new** plan`,
    (n) => `\`\`\`ts\n${TYPESCRIPT.join('\n')}\n// ${n}\n\`\`\``,
    (n) => `Screenshot ${n}: [diagram.png](${imagePath})`,
    (n) => `\`\`\`math\n\\int_0^{${n}} x^2\\,dx = \\frac{${n}^3}{3}\n\`\`\``,
    (n) =>
      `| step | owner | done |\n|---|---|---|\n| ${n} | @**Dev Member** | :check: |\n| ${n + 1} | @**Emma Member** | :cross_mark: |`,
    (n) => `:smile: :heart: :thumbs_up: :joy: :fire: :eyes: :100: :wave: ${n} reactions later`,
  ];
}

/** `count` rich message bodies (server HTML), from templates rendered by the real server. */
export async function renderRichBodies(count = 48): Promise<string[]> {
  const server = await startTestServer({ seed: 'demo' });
  try {
    const dev = server.client('dev');
    const form = new FormData();
    const png = encodePng(320, 200, (x, y) => [x % 256, y % 256, 160, 255]);
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'diagram.png');
    const upload = await dev.multipart('/user_uploads', form);
    const imagePath = String((upload.body as { url?: string } | null)?.url ?? '');
    if (!imagePath) throw new Error(`upload failed: ${upload.status} ${upload.text}`);
    const list = templates(imagePath);
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const content = list[i % list.length](i + 2);
      const sent = await dev.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: `rich ${i % 6}`,
        content,
      });
      const id = (sent.body as { id?: number } | null)?.id;
      if (typeof id !== 'number') throw new Error(`send failed: ${sent.status} ${sent.text}`);
      ids.push(id);
    }
    const fetched = await dev.get('/messages', {
      anchor: ids[0],
      num_before: 0,
      num_after: count,
      narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }]),
      apply_markdown: true,
    });
    const messages = (fetched.body as { messages?: Array<{ id: number; content: string }> } | null)
      ?.messages;
    if (!messages) throw new Error(`fetch failed: ${fetched.status} ${fetched.text}`);
    const byId = new Map(messages.map((m) => [m.id, m.content]));
    return ids.map((id) => {
      const html = byId.get(id);
      if (html === undefined) throw new Error(`message ${id} missing from the fetch`);
      return html;
    });
  } finally {
    await server.close();
  }
}
