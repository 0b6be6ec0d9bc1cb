// npx tsx bench/server-load/profile-summary.ts FILE.cpuprofile [--top 40] [--last SECONDS]
//
// Summarises a V8 .cpuprofile (from BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR") by
// self time per function and per file, so the costs of the server under load can be compared.
// --last S counts only the samples of the profile's last S seconds: the load phase of
// bench:server ends about 3 s before the server stops, so `--last <duration + 3>` leaves out the
// set-up (account creation hashes passwords, which would otherwise dominate).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '40' },
    last: { type: 'string' },
  },
});
const top = Number(values.top);

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Self time per node from the sample timeline (each sample's delta belongs to its node).
  const selfUs = new Map<number, number>();
  const elapsedUs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const fromUs = values.last === undefined ? -Infinity : elapsedUs - Number(values.last) * 1e6;
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    if (atUs < fromUs) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nameOf = (id: number): string => {
    const frame = byId.get(id)!.callFrame;
    const where = shortUrl(frame.url);
    // Line and column of the code as run (tsx output), enough to tell anonymous functions apart.
    return `${frame.functionName || '(anonymous)'} ${where}${where ? `:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}`;
  };
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const name = nameOf(at);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const where = shortUrl(frame.url);
    const name = nameOf(id);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byFile.set(where || frame.functionName, (byFile.get(where || frame.functionName) ?? 0) + us);
    total += us;
  }
  const idle = (byFunction.get('(idle) ') ?? 0) / 1000;
  console.log(
    `\n${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(idle / 1000).toFixed(1)} s idle`,
  );
  print('self time by function', byFunction, total);
  print('self time by file', byFile, total);
  print('total time (self + callees) by function', inclusive, total);
}

function print(title: string, costs: Map<string, number>, total: number): void {
  console.log(`\n  ${title}:`);
  for (const [name, us] of [...costs].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
    );
  }
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '~/')
    .replace(/^.*\/work\/main\//, '');
}
