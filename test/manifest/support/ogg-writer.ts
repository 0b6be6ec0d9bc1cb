// A small Ogg writer and packet reader for tests, independent of shared/ogg's streaming reader, so that
// re-paged, re-tagged, reordered and multi-stream files can be built from a real recording.

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

/** Bytewise Ogg CRC (a deliberately simple second implementation). */
export function simpleOggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]) >>> 0;
  return crc;
}

export interface RawPage {
  headerType: number;
  granule: bigint;
  serial: number;
  sequence: number;
  segments: number[];
  body: Uint8Array;
}

export function encodePage(p: RawPage): Uint8Array {
  const out = new Uint8Array(27 + p.segments.length + p.body.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53], 0);
  out[4] = 0;
  out[5] = p.headerType;
  view.setBigUint64(6, BigInt.asUintN(64, p.granule), true);
  view.setUint32(14, p.serial, true);
  view.setUint32(18, p.sequence, true);
  out[26] = p.segments.length;
  out.set(p.segments, 27);
  out.set(p.body, 27 + p.segments.length);
  view.setUint32(22, simpleOggCrc(out), true);
  return out;
}

export function decodePages(file: Uint8Array): RawPage[] {
  const pages: RawPage[] = [];
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let at = 0;
  while (at < file.length) {
    const n = file[at + 26];
    const segments = [...file.subarray(at + 27, at + 27 + n)];
    const bodyLength = segments.reduce((a, b) => a + b, 0);
    const bodyAt = at + 27 + n;
    pages.push({
      headerType: file[at + 5],
      granule: view.getBigInt64(at + 6, true),
      serial: view.getUint32(at + 14, true),
      sequence: view.getUint32(at + 18, true),
      segments,
      body: file.slice(bodyAt, bodyAt + bodyLength),
    });
    at = bodyAt + bodyLength;
  }
  return pages;
}

export interface Packet {
  data: Uint8Array;
  /** Granule position of the page on which the packet ends. */
  pageGranule: bigint;
}

export function decodePackets(file: Uint8Array): Packet[] {
  const packets: Packet[] = [];
  let parts: Uint8Array[] = [];
  for (const page of decodePages(file)) {
    let off = 0;
    for (const lace of page.segments) {
      parts.push(page.body.subarray(off, off + lace));
      off += lace;
      if (lace < 255) {
        packets.push({ data: concat(parts), pageGranule: page.granule });
        parts = [];
      }
    }
  }
  return packets;
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Samples (48 kHz) in an Opus packet, from its TOC byte (RFC 6716 §3.1). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  const config = toc >> 3;
  let frameTenthsMs: number;
  if (config < 12) frameTenthsMs = [100, 200, 400, 600][config % 4];
  else if (config < 16) frameTenthsMs = [100, 200][config % 2];
  else frameTenthsMs = [25, 50, 100, 200][config % 4];
  const code = toc & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : packet[1] & 0x3f;
  return (frames * frameTenthsMs * 48) / 10;
}

/** An OpusTags packet with the given vendor and comments. */
export function opusTags(vendor: string, comments: string[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [enc.encode('OpusTags')];
  const u32 = (n: number) => new Uint8Array(new Uint32Array([n]).buffer);
  const v = enc.encode(vendor);
  parts.push(u32(v.length), v, u32(comments.length));
  for (const c of comments) {
    const b = enc.encode(c);
    parts.push(u32(b.length), b);
  }
  return concat(parts);
}

export interface LayoutOptions {
  serial: number;
  /** Lacing values per audio page; an odd number makes packets span pages. */
  segmentsPerPage: number;
}

/**
 * Writes a complete Ogg Opus stream: OpusHead alone on the first page, OpusTags on the next page(s),
 * then the audio packets laid out `segmentsPerPage` lacing values at a time (packets span pages).
 * `granules[i]` is the granule position after audio packet i.
 */
export function writeOpusStream(
  head: Uint8Array,
  tags: Uint8Array,
  audio: Uint8Array[],
  granules: bigint[],
  opts: LayoutOptions,
): Uint8Array {
  const pages: Uint8Array[] = [];
  let sequence = 0;
  type Seg = { lace: number; bytes: Uint8Array; first: boolean; endsPacket: number | null };
  const segmentsOf = (packet: Uint8Array, index: number | null): Seg[] => {
    const segs: Seg[] = [];
    let off = 0;
    for (;;) {
      const lace = Math.min(255, packet.length - off);
      segs.push({
        lace,
        bytes: packet.subarray(off, off + lace),
        first: off === 0,
        endsPacket: lace < 255 ? index : null,
      });
      off += lace;
      if (lace < 255) return segs;
    }
  };
  const flush = (segs: Seg[], granule: bigint, flags: number) => {
    const continued = segs.length > 0 && !segs[0].first ? 1 : 0;
    pages.push(
      encodePage({
        headerType: flags | continued,
        granule,
        serial: opts.serial,
        sequence: sequence++,
        segments: segs.map((s) => s.lace),
        body: concat(segs.map((s) => s.bytes)),
      }),
    );
  };
  flush(segmentsOf(head, null), 0n, 0x02);
  const tagSegs = segmentsOf(tags, null);
  for (let i = 0; i < tagSegs.length; i += 255)
    flush(tagSegs.slice(i, i + 255), i + 255 >= tagSegs.length ? 0n : -1n, 0);
  const audioSegs = audio.flatMap((p, i) => segmentsOf(p, i));
  for (let i = 0; i < audioSegs.length; i += opts.segmentsPerPage) {
    const segs = audioSegs.slice(i, i + opts.segmentsPerPage);
    const ended = segs.filter((s) => s.endsPacket !== null).map((s) => s.endsPacket as number);
    const granule = ended.length ? granules[ended[ended.length - 1]] : -1n;
    flush(segs, granule, i + opts.segmentsPerPage >= audioSegs.length ? 0x04 : 0);
  }
  return concat(pages);
}
