// npx tsx bench/support/heap-summary.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top 20]
//
// What a heap holds by constructor, before and after a bench's load (server-memory.ts writes the
// snapshots): the constructors whose object count grew most, with their counts and self sizes. A
// server that keeps nothing per request shows no constructor growing with the number of requests
// (a few hundred objects of lazily built caches, within their bounds, are expected).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

/** Objects by constructor (other node kinds by their kind: "(string)", "(closure)"...). */
export function heapGroups(file: string): Map<string, Group> {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const kinds = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, Group>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const kind = kinds[heap.nodes[i + typeAt]];
    const name = kind === 'object' ? heap.strings[heap.nodes[i + nameAt]] : `(${kind})`;
    const group = groups.get(name) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += heap.nodes[i + sizeAt];
    groups.set(name, group);
  }
  return groups;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '20' } },
  });
  const [beforeFile, afterFile] = positionals;
  if (!beforeFile || !afterFile) {
    console.error('usage: heap-summary.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top 20]');
    process.exit(2);
  }
  const before = heapGroups(beforeFile);
  const after = heapGroups(afterFile);
  const total = (groups: Map<string, Group>) =>
    [...groups.values()].reduce(
      (sum, g) => ({ count: sum.count + g.count, bytes: sum.bytes + g.bytes }),
      {
        count: 0,
        bytes: 0,
      },
    );
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const t0 = total(before);
  const t1 = total(after);
  console.log(
    `heap objects: ${t0.count} (${mb(t0.bytes)} MB) before, ${t1.count} (${mb(t1.bytes)} MB) after`,
  );
  const names = new Set([...before.keys(), ...after.keys()]);
  const rows = [...names]
    .map((name) => {
      const b = before.get(name) ?? { count: 0, bytes: 0 };
      const a = after.get(name) ?? { count: 0, bytes: 0 };
      return {
        name,
        before: b.count,
        after: a.count,
        grew: a.count - b.count,
        bytes: a.bytes - b.bytes,
      };
    })
    .sort((x, y) => y.grew - x.grew || y.bytes - x.bytes)
    .slice(0, Number(values.top));
  console.log('constructors that grew most (count before -> after, self size change):');
  for (const row of rows) {
    console.log(
      `  ${row.name.slice(0, 40).padEnd(40)} ${String(row.before).padStart(8)} -> ${String(row.after).padEnd(8)} ${row.grew >= 0 ? '+' : ''}${row.grew}  ${row.bytes >= 0 ? '+' : ''}${(row.bytes / 1024).toFixed(0)} KB`,
    );
  }
}

if (process.argv[1]?.endsWith('heap-summary.ts')) main();
