// The exact-opus-audio-v1 values computed while streaming (manifest-decisions §4), on the real fixture
// recording and on files rebuilt from its packets with an independent Ogg writer.
import { describe, expect, it } from 'vitest';
import { nodeSha256 } from '../../electron/manifest';
import {
  OggPageReader,
  oggPageCrc,
  OpusIntegrityReader,
  type OpusReadResult,
} from '../../shared/ogg';
import { REENCODED, validManifest, weeklyAudio } from './support/fixtures';
import {
  concat,
  decodePackets,
  decodePages,
  encodePage,
  opusPacketSamples,
  opusTags,
  simpleOggCrc,
  writeOpusStream,
} from './support/ogg-writer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function integrityOf(file: Uint8Array, chunkSize = 4096): OpusReadResult {
  const reader = new OpusIntegrityReader(nodeSha256);
  for (let at = 0; at < file.length; at += chunkSize)
    reader.push(file.subarray(at, at + chunkSize));
  return reader.finish();
}

const expected = validManifest().integrity as Record<string, unknown>;

/** Rebuilds the fixture recording from its packets with another page layout and other comments. */
function repage(
  file: Uint8Array,
  opts: {
    segmentsPerPage: number;
    serial?: number;
    reorder?: (audio: Uint8Array[]) => Uint8Array[];
  },
): Uint8Array {
  const packets = decodePackets(file);
  const [head, , ...audioPackets] = packets;
  const lastGranule = audioPackets[audioPackets.length - 1].pageGranule;
  // Granules from each packet's duration (TOC), capped by the original end (which trims the last frame).
  let total = 0n;
  const granules = audioPackets.map((p) => {
    total += BigInt(opusPacketSamples(p.data));
    return total < lastGranule ? total : lastGranule;
  });
  granules[granules.length - 1] = lastGranule;
  const audio = audioPackets.map((p) => p.data);
  const tags = opusTags('tributary test writer', [
    'TITLE=Re-paged copy',
    'COMMENT=' + 'x'.repeat(700),
  ]);
  return writeOpusStream(head.data, tags, opts.reorder ? opts.reorder(audio) : audio, granules, {
    serial: opts.serial ?? 0x1234abcd,
    segmentsPerPage: opts.segmentsPerPage,
  });
}

describe('Ogg CRC-32', () => {
  it('matches a bytewise implementation and the CRC stored in every fixture page', () => {
    const file = weeklyAudio();
    const pages = decodePages(file);
    let at = 0;
    for (const p of pages) {
      const bytes = encodePage(p);
      const stored = new DataView(file.buffer, file.byteOffset + at + 22, 4).getUint32(0, true);
      expect(oggPageCrc(file.subarray(at, at + bytes.length))).toBe(stored);
      expect(
        simpleOggCrc(concat([bytes.subarray(0, 22), new Uint8Array(4), bytes.subarray(26)])),
      ).toBe(stored);
      at += bytes.length;
    }
    expect(at).toBe(file.length);
  });
});

describe('OpusIntegrityReader', () => {
  it('computes the manifest integrity values of the fixture recording', () => {
    const result = integrityOf(weeklyAudio());
    expect(result).toMatchObject({ ok: true, preSkip: 312 });
    expect(result.ok && result.values).toEqual(expected);
  });

  it('gives the same values whatever the chunk sizes', () => {
    const file = weeklyAudio();
    const whole = integrityOf(file, file.length);
    for (const size of [1, 13, 27, 255, 65_536]) expect(integrityOf(file, size)).toEqual(whole);
  });

  it('gives another hash for the re-encoded recording, same length and channels', () => {
    const result = integrityOf(new Uint8Array(readFileSync(join(REENCODED, 'recording.opus'))));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.values.opusAudioSha256).not.toBe(expected.opusAudioSha256);
    expect(result.values.sampleCount).toBe(expected.sampleCount);
    expect(result.values.channels).toBe(1);
  });

  it('verifies a re-paged copy with other comments (packets spanning pages)', () => {
    const original = weeklyAudio();
    for (const segmentsPerPage of [3, 17, 255]) {
      const copy = repage(original, { segmentsPerPage });
      expect(copy).not.toEqual(original);
      expect(decodePages(copy).length).not.toBe(decodePages(original).length);
      const result = integrityOf(copy);
      expect(result.ok && result.values).toEqual(expected);
    }
  });

  it('does not verify a copy with two audio packets swapped', () => {
    const copy = repage(weeklyAudio(), {
      segmentsPerPage: 17,
      reorder: (audio) => {
        const out = [...audio];
        [out[10], out[500]] = [out[500], out[10]];
        return out;
      },
    });
    const result = integrityOf(copy);
    expect(result.ok).toBe(true);
    expect(result.ok && result.values.opusAudioSha256).not.toBe(expected.opusAudioSha256);
  });

  it('reports a file cut inside a page as unreadable, and one cut at a page boundary as different', () => {
    const file = weeklyAudio();
    const cut = integrityOf(file.subarray(0, Math.floor(file.length / 2)));
    expect(cut).toMatchObject({ ok: false, reason: expect.stringMatching(/truncated/) });
    const pages = decodePages(file);
    const keep = pages.slice(0, pages.length - 3).map(encodePage);
    const shorter = integrityOf(concat(keep));
    expect(shorter.ok).toBe(true);
    expect(shorter.ok && shorter.values.opusAudioSha256).not.toBe(expected.opusAudioSha256);
    expect(shorter.ok && shorter.values.sampleCount).toBeLessThan(expected.sampleCount as number);
  });

  it('reports a corrupted CRC as unreadable', () => {
    const file = weeklyAudio().slice();
    const pages = decodePages(file);
    const thirdPageAt = encodePage(pages[0]).length + encodePage(pages[1]).length;
    file[thirdPageAt + 22] ^= 0x01; // the CRC field itself
    expect(integrityOf(file)).toMatchObject({ ok: false, reason: expect.stringMatching(/CRC/) });
    const body = weeklyAudio().slice();
    body[body.length - 10] ^= 0x80; // a bit of audio in the last page
    expect(integrityOf(body)).toMatchObject({ ok: false, reason: expect.stringMatching(/CRC/) });
  });

  it('reports a file with two logical streams as unreadable (multiplexed and chained)', () => {
    const file = weeklyAudio();
    const other = repage(file, { segmentsPerPage: 255, serial: 77 });
    const otherPages = decodePages(other);
    const pages = decodePages(file);
    const multiplexed = concat([
      encodePage(pages[0]),
      encodePage(otherPages[0]),
      ...pages.slice(1).map(encodePage),
    ]);
    expect(integrityOf(multiplexed)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/second logical stream/),
    });
    const chained = concat([file, other]);
    expect(integrityOf(chained)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/second logical stream/),
    });
  });

  it('reports non-Opus and malformed streams as unreadable', () => {
    const file = weeklyAudio();
    const pages = decodePages(file);
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty file', new Uint8Array(0), /no Ogg pages/],
      ['not Ogg', new TextEncoder().encode('RIFF....WAVEfmt '), /capture pattern/],
      ['no OpusTags', encodePage(pages[0]), /OpusTags/],
    ];
    const vorbis = { ...pages[0], body: pages[0].body.slice() };
    vorbis.body.set(new TextEncoder().encode('OpusHeaX'));
    cases.push([
      'not OpusHead',
      concat([encodePage(vorbis), ...pages.slice(1).map(encodePage)]),
      /OpusHead/,
    ]);
    const v2 = { ...pages[0], body: pages[0].body.slice() };
    v2.body[8] = 0x10; // major version 1
    cases.push([
      'OpusHead version 16',
      concat([encodePage(v2), ...pages.slice(1).map(encodePage)]),
      /version/,
    ]);
    const gap = concat([...pages.slice(0, 3), ...pages.slice(4)].map(encodePage));
    cases.push(['missing page', gap, /sequence/]);
    // An OpusHead long enough to span two pages ends on the second one: RFC 7845 wants it alone on
    // the first page.
    const longHead = new Uint8Array(300);
    longHead.set(pages[0].body);
    const spanning = [
      { ...pages[0], granule: -1n, segments: [255], body: longHead.subarray(0, 255) },
      { ...pages[0], headerType: 1, sequence: 1, segments: [45], body: longHead.subarray(255) },
      ...pages.slice(1).map((p) => ({ ...p, sequence: p.sequence + 1 })),
    ];
    cases.push([
      'OpusHead over two pages',
      concat(spanning.map(encodePage)),
      /OpusHead is not on the first page/,
    ]);
    const badVersion = file.slice();
    badVersion[4] = 1;
    cases.push(['Ogg version 1', badVersion, /version/]);
    for (const [name, bytes, reason] of cases) {
      expect(integrityOf(bytes), name).toMatchObject({
        ok: false,
        reason: expect.stringMatching(reason),
      });
    }
  });

  it('assembles pages that straddle chunk boundaries', () => {
    const file = weeklyAudio();
    const seen: number[] = [];
    const reader = new OggPageReader((page) => seen.push(page.sequence));
    for (let at = 0; at < file.length; at += 100) reader.push(file.subarray(at, at + 100));
    expect(reader.pendingBytes).toBe(0);
    expect(seen).toEqual(decodePages(file).map((p) => p.sequence));
  });
});
