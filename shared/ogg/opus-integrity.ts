// Computes the `exact-opus-audio-v1` values of an Ogg Opus stream while it streams past
// (manifest-decisions §4): SHA-256 over every audio packet after OpusHead and OpusTags, the channel
// count and pre-skip from OpusHead, and the sample count from the last granule position.
// Only page-sized views are held; the recording is never kept in memory.
import {
  HEADER_BOS,
  HEADER_CONTINUED,
  HEADER_EOS,
  OggFormatError,
  OggPageReader,
  type OggPage,
} from './page-reader';

/** An incremental SHA-256 supplied by the host (node:crypto in main; shared/ stays pure). */
export interface IncrementalHash {
  update(bytes: Uint8Array): void;
  digestHex(): string;
}
export type HashFactory = () => IncrementalHash;

export interface OpusIntegrityValues {
  matchPolicy: 'exact-opus-audio-v1';
  opusAudioSha256: string;
  sampleRate: 48000;
  channels: number;
  sampleCount: number;
  durationMs: number;
}

export type OpusReadResult =
  | { ok: true; values: OpusIntegrityValues; preSkip: number; byteLength: number }
  | { ok: false; reason: string; byteLength: number };

/** OpusHead is at most 19 + 2 + 255 bytes; keep a little more so a longer one is still parsed. */
const OPUS_HEAD_KEEP = 512;
const textOf = (b: Uint8Array) => String.fromCharCode(...b);

export class OpusIntegrityReader {
  private readonly pages: OggPageReader;
  private readonly hash: IncrementalHash;
  private failure: string | null = null;
  private bytesSeen = 0;

  private serial = -1;
  private nextSequence = 0;
  private sawEos = false;
  /** Index of the packet currently being read (0 = OpusHead, 1 = OpusTags, 2.. = audio). */
  private packetIndex = 0;
  private packetOpen = false;
  private packetBytes = 0;
  private headBytes = new Uint8Array(OPUS_HEAD_KEEP);
  private headLength = 0;
  private tagsMagic = new Uint8Array(8);
  private tagsMagicLength = 0;
  private channels = 0;
  private preSkip = 0;
  private lastGranule = -1;

  constructor(createHash: HashFactory) {
    this.hash = createHash();
    this.pages = new OggPageReader((page) => this.onPage(page));
  }

  /** Feeds the next bytes of the file. Never throws; after a failure further input is ignored. */
  push(chunk: Uint8Array): void {
    this.bytesSeen += chunk.length;
    if (this.failure !== null) return;
    try {
      this.pages.push(chunk);
    } catch (err) {
      this.fail(err);
    }
  }

  /** Ends the stream and returns the integrity values, or why the file is not single-stream Ogg Opus. */
  finish(): OpusReadResult {
    const byteLength = this.bytesSeen;
    if (this.failure === null) {
      if (this.pages.pendingBytes > 0)
        this.failure = 'the file ends inside an Ogg page (truncated)';
      else if (this.serial === -1) this.failure = 'no Ogg pages found';
      else if (this.packetOpen) this.failure = 'the stream ends inside a packet';
      else if (this.packetIndex < 1) this.failure = 'no OpusHead header packet';
      else if (this.packetIndex < 2) this.failure = 'no OpusTags header packet';
    }
    if (this.failure !== null) return { ok: false, reason: this.failure, byteLength };
    const sampleCount = Math.max(0, this.lastGranule - this.preSkip);
    return {
      ok: true,
      preSkip: this.preSkip,
      byteLength,
      values: {
        matchPolicy: 'exact-opus-audio-v1',
        opusAudioSha256: this.hash.digestHex(),
        sampleRate: 48000,
        channels: this.channels,
        sampleCount,
        durationMs: Math.floor(sampleCount / 48),
      },
    };
  }

  private fail(err: unknown): void {
    if (err instanceof OggFormatError) this.failure = err.message;
    else this.failure = `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  }

  private onPage(page: OggPage): void {
    this.checkStreamStructure(page);
    const segments = page.segments;
    const body = page.body;
    let offset = 0;
    // Where in this body the audio packets start; everything from there on is hashed in one update,
    // since the audio packets are contiguous in the body and hashed concatenated.
    let audioFrom = this.packetIndex >= 2 ? 0 : -1;
    let completedHere = false;
    for (let s = 0; s < segments.length; s++) {
      const lace = segments[s];
      if (this.packetIndex < 2) this.collectHeader(body, offset, lace);
      offset += lace;
      this.packetOpen = lace === 255;
      if (!this.packetOpen) {
        completedHere = true;
        this.endPacket(page);
        if (this.packetIndex === 2 && audioFrom < 0) audioFrom = offset;
      }
    }
    if (audioFrom >= 0 && audioFrom < body.length) this.hash.update(body.subarray(audioFrom));
    if (completedHere) {
      if (!(page.granule >= 0)) {
        throw new OggFormatError(`invalid granule position on the page at byte ${page.offset}`);
      }
      this.lastGranule = page.granule;
    }
  }

  private checkStreamStructure(page: OggPage): void {
    if (this.serial === -1) {
      if (!(page.headerType & HEADER_BOS)) {
        throw new OggFormatError('the first Ogg page is not a beginning-of-stream page');
      }
      this.serial = page.serial;
    } else {
      if (page.serial !== this.serial) {
        throw new OggFormatError(
          `a second logical stream (serial ${page.serial}) at byte ${page.offset}; exactly one is allowed`,
        );
      }
      if (page.headerType & HEADER_BOS) {
        throw new OggFormatError(`a second beginning-of-stream page at byte ${page.offset}`);
      }
    }
    if (this.sawEos)
      throw new OggFormatError(`data after the end-of-stream page at byte ${page.offset}`);
    if (page.headerType & HEADER_EOS) this.sawEos = true;
    if (page.sequence !== this.nextSequence) {
      throw new OggFormatError(
        `page sequence ${page.sequence} where ${this.nextSequence} was expected at byte ${page.offset} (a page is missing)`,
      );
    }
    this.nextSequence = (this.nextSequence + 1) >>> 0;
    const continued = (page.headerType & HEADER_CONTINUED) !== 0;
    if (continued !== this.packetOpen) {
      throw new OggFormatError(
        continued
          ? `page at byte ${page.offset} continues a packet but none is open`
          : `page at byte ${page.offset} starts fresh while a packet is still open`,
      );
    }
  }

  private collectHeader(body: Uint8Array, offset: number, lace: number): void {
    this.packetBytes += lace;
    if (this.packetIndex === 0) {
      const n = Math.min(lace, OPUS_HEAD_KEEP - this.headLength);
      if (n > 0) this.headBytes.set(body.subarray(offset, offset + n), this.headLength);
      this.headLength += Math.max(0, n);
    } else {
      const n = Math.min(lace, 8 - this.tagsMagicLength);
      if (n > 0) this.tagsMagic.set(body.subarray(offset, offset + n), this.tagsMagicLength);
      this.tagsMagicLength += Math.max(0, n);
    }
  }

  private endPacket(page: OggPage): void {
    if (this.packetIndex === 0) {
      this.parseOpusHead();
      // RFC 7845 §3: the identification header is alone on the first page.
      if (page.sequence !== 0) throw new OggFormatError('OpusHead is not on the first page');
    } else if (this.packetIndex === 1) {
      if (this.tagsMagicLength < 8 || textOf(this.tagsMagic) !== 'OpusTags') {
        throw new OggFormatError('the second packet is not an OpusTags header');
      }
    }
    if (this.packetIndex === 0 && page.segments.length > 0) {
      // The first page must hold OpusHead and nothing else.
      const lastLace = page.segments[page.segments.length - 1];
      if (this.packetBytes !== page.body.length || lastLace === 255) {
        throw new OggFormatError('the first Ogg page holds more than the OpusHead packet');
      }
    }
    // Audio packets need no per-packet work: their bytes are hashed page by page in onPage.
    if (this.packetIndex < 2) this.packetIndex++;
    this.packetBytes = 0;
  }

  private parseOpusHead(): void {
    const h = this.headBytes;
    const len = this.headLength;
    if (len < 19 || textOf(h.subarray(0, 8)) !== 'OpusHead') {
      throw new OggFormatError('the first packet is not an OpusHead header');
    }
    const version = h[8];
    // RFC 7845 §5.1: a major version (upper four bits) other than 0 is incompatible.
    if (version >> 4 !== 0) throw new OggFormatError(`unsupported OpusHead version ${version}`);
    const channels = h[9];
    if (channels < 1) throw new OggFormatError('OpusHead declares 0 channels');
    const mappingFamily = h[18];
    if (mappingFamily === 0 && channels > 2) {
      throw new OggFormatError(`OpusHead mapping family 0 with ${channels} channels`);
    }
    if (mappingFamily !== 0 && len < 21 + channels) {
      throw new OggFormatError('OpusHead channel mapping table is truncated');
    }
    this.channels = channels;
    this.preSkip = h[10] | (h[11] << 8);
  }
}
