// Streaming Ogg page splitter (RFC 3533). Bytes arrive in chunks of any size; each complete page is
// handed to the caller as a view into the chunk when it lies inside one (no copy), or assembled in a
// small buffer when it straddles chunks. At most one page (65,307 bytes) is ever buffered.
import { oggPageCrc } from './crc32';

export const MAX_PAGE_BYTES = 27 + 255 + 255 * 255;

export const HEADER_CONTINUED = 0x01;
export const HEADER_BOS = 0x02;
export const HEADER_EOS = 0x04;

export interface OggPage {
  /** Byte offset of the page in the stream, for error messages. */
  offset: number;
  headerType: number;
  /** Granule position when it fits a safe integer, -1 for the "no packet ends here" value, NaN otherwise. */
  granule: number;
  serial: number;
  sequence: number;
  /** Lacing values: a value below 255 ends a packet. */
  segments: Uint8Array;
  body: Uint8Array;
}

export class OggFormatError extends Error {}

function readU32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

function readGranule(b: Uint8Array, at: number): number {
  const low = readU32(b, at);
  const high = readU32(b, at + 4);
  if (low === 0xffffffff && high === 0xffffffff) return -1;
  // Above 2^53 (or negative as int64) no real recording gets there; refuse rather than round.
  if (high >= 0x200000) return NaN;
  return high * 0x100000000 + low;
}

/**
 * Length of the page starting at `at`, or -1 when more bytes are needed to know it.
 * Throws OggFormatError when the bytes there cannot be an Ogg page header.
 */
function pageLength(b: Uint8Array, at: number, end: number, streamOffset: number): number {
  const have = end - at;
  // Check the capture pattern as soon as its bytes are there, so garbage fails early.
  const magic = [0x4f, 0x67, 0x67, 0x53];
  for (let k = 0; k < 4 && k < have; k++) {
    if (b[at + k] !== magic[k]) {
      throw new OggFormatError(`no Ogg capture pattern "OggS" at byte ${streamOffset}`);
    }
  }
  if (have < 27) return -1;
  if (b[at + 4] !== 0) {
    throw new OggFormatError(`unsupported Ogg version ${b[at + 4]} at byte ${streamOffset}`);
  }
  if (b[at + 5] & ~0x07) {
    throw new OggFormatError(`undefined header type flags at byte ${streamOffset}`);
  }
  const nsegs = b[at + 26];
  if (have < 27 + nsegs) return -1;
  let len = 27 + nsegs;
  for (let k = 0; k < nsegs; k++) len += b[at + 27 + k];
  return len;
}

export class OggPageReader {
  private readonly onPage: (page: OggPage) => void;
  /** Bytes of a page that straddles chunk boundaries. */
  private carry = new Uint8Array(0);
  private carryLength = 0;
  private streamOffset = 0;

  constructor(onPage: (page: OggPage) => void) {
    this.onPage = onPage;
  }

  /** Feeds bytes. Throws OggFormatError on malformed data; the caller stops feeding after that. */
  push(chunk: Uint8Array): void {
    let pos = 0;
    if (this.carryLength > 0) {
      pos = this.fillCarry(chunk);
      if (pos < 0) return; // the whole chunk went into the carry and the page is still incomplete
    }
    for (;;) {
      const len = pageLength(chunk, pos, chunk.length, this.streamOffset);
      if (len < 0 || pos + len > chunk.length) break;
      this.emit(chunk.subarray(pos, pos + len));
      pos += len;
    }
    this.appendCarry(chunk, pos, chunk.length);
  }

  /** Number of bytes left over that do not form a complete page (0 means the stream ended cleanly). */
  get pendingBytes(): number {
    return this.carryLength;
  }

  /** Completes the carried page from the chunk; returns where the chunk continues, or -1 if consumed. */
  private fillCarry(chunk: Uint8Array): number {
    let pos = 0;
    for (;;) {
      const len = pageLength(this.carry, 0, this.carryLength, this.streamOffset);
      // Without a known length, take just enough bytes to learn it: the header, then the segment table.
      const want = len >= 0 ? len : this.carryLength < 27 ? 27 : 27 + this.carry[26];
      const take = Math.min(want - this.carryLength, chunk.length - pos);
      this.appendCarry(chunk, pos, pos + take);
      pos += take;
      if (len >= 0 && this.carryLength === len) {
        const page = this.carry.subarray(0, len);
        this.carryLength = 0;
        this.emit(page);
        return pos;
      }
      if (pos === chunk.length) {
        // One more look: the bytes taken may complete the header check (and throw on garbage).
        pageLength(this.carry, 0, this.carryLength, this.streamOffset);
        return -1;
      }
    }
  }

  private appendCarry(src: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    if (this.carry.length < this.carryLength + n) {
      const bigger = new Uint8Array(
        Math.min(MAX_PAGE_BYTES, Math.max(1024, (this.carryLength + n) * 2)),
      );
      bigger.set(this.carry.subarray(0, this.carryLength));
      this.carry = bigger;
    }
    this.carry.set(src.subarray(from, to), this.carryLength);
    this.carryLength += n;
  }

  private emit(bytes: Uint8Array): void {
    const offset = this.streamOffset;
    const stored = readU32(bytes, 22);
    if (oggPageCrc(bytes) !== stored) {
      throw new OggFormatError(`CRC mismatch in the Ogg page at byte ${offset}`);
    }
    const nsegs = bytes[26];
    this.streamOffset += bytes.length;
    this.onPage({
      offset,
      headerType: bytes[5],
      granule: readGranule(bytes, 6),
      serial: readU32(bytes, 14),
      sequence: readU32(bytes, 18),
      segments: bytes.subarray(27, 27 + nsegs),
      body: bytes.subarray(27 + nsegs),
    });
  }
}
