// Ogg's CRC-32: polynomial 0x04c11db7, MSB-first (not reflected), initial value 0, no final xor.
// It is not zlib's CRC-32 (that one is reflected), so it cannot be delegated to a platform API.
// Verification must stay close to the speed of hashing, so this is a slice-by-8 implementation:
// eight lookup tables let the loop consume eight bytes per iteration.

const POLY = 0x04c11db7;

function buildTables(): Uint32Array[] {
  const tables: Uint32Array[] = [];
  const first = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ POLY : r << 1;
    first[i] = r >>> 0;
  }
  tables.push(first);
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1];
    const next = new Uint32Array(256);
    for (let i = 0; i < 256; i++) next[i] = ((prev[i] << 8) ^ first[prev[i] >>> 24]) >>> 0;
    tables.push(next);
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = buildTables();

/** Continues a CRC over bytes[start, end). Start a new CRC with crc = 0. */
export function oggCrcUpdate(
  crc: number,
  bytes: Uint8Array,
  start = 0,
  end = bytes.length,
): number {
  let c = crc >>> 0;
  let i = start;
  const fastEnd = end - 8;
  while (i <= fastEnd) {
    const hi =
      (c ^ ((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3])) >>> 0;
    c =
      T7[hi >>> 24] ^
      T6[(hi >>> 16) & 0xff] ^
      T5[(hi >>> 8) & 0xff] ^
      T4[hi & 0xff] ^
      T3[bytes[i + 4]] ^
      T2[bytes[i + 5]] ^
      T1[bytes[i + 6]] ^
      T0[bytes[i + 7]];
    i += 8;
  }
  while (i < end) {
    c = (c << 8) ^ T0[((c >>> 24) ^ bytes[i]) & 0xff];
    i++;
  }
  return c >>> 0;
}

/** CRC of a whole Ogg page, computed as the format requires: with the CRC field (bytes 22..25) zeroed. */
export function oggPageCrc(page: Uint8Array): number {
  let c = oggCrcUpdate(0, page, 0, 22);
  for (let k = 0; k < 4; k++) c = (c << 8) ^ T0[(c >>> 24) & 0xff];
  return oggCrcUpdate(c >>> 0, page, 26, page.length);
}
