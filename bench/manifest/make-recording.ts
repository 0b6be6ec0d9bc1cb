// Makes (once) a one-hour mono Ogg Opus recording for the manifest benchmark: synthesized audio
// (a gliding tone over noise, so the encoder never sees silence) piped as raw PCM into Debian's opusenc.
import { spawn } from 'node:child_process';
import { existsSync, renameSync, statSync } from 'node:fs';

const RATE = 48_000;
const BLOCK_SAMPLES = RATE; // one second per write

function pcmSecond(second: number, seed: { value: number }): Buffer {
  const block = Buffer.alloc(BLOCK_SAMPLES * 2);
  for (let i = 0; i < BLOCK_SAMPLES; i++) {
    const t = second + i / RATE;
    const freq = 220 + 180 * Math.sin(t / 7);
    seed.value = (seed.value * 1_103_515_245 + 12_345) >>> 0;
    const noise = (seed.value / 0xffffffff - 0.5) * 0.15;
    const sample = 0.4 * Math.sin(2 * Math.PI * freq * t) + noise;
    block.writeInt16LE(Math.round(Math.max(-1, Math.min(1, sample)) * 32_000), i * 2);
  }
  return block;
}

/** Returns the path of the cached recording, encoding it first when it is not there yet. */
export async function ensureRecording(path: string, seconds: number): Promise<string> {
  if (existsSync(path) && statSync(path).size > 0) return path;
  const partial = `${path}.partial`;
  const encoder = spawn(
    'opusenc',
    [
      '--quiet',
      '--raw',
      '--raw-rate',
      String(RATE),
      '--raw-chan',
      '1',
      '--bitrate',
      '64',
      '-',
      partial,
    ],
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  const done = new Promise<void>((resolve, reject) => {
    encoder.on('error', reject);
    encoder.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`opusenc exited with ${code}`)),
    );
  });
  const seed = { value: 1 };
  for (let s = 0; s < seconds; s++) {
    if (!encoder.stdin.write(pcmSecond(s, seed))) {
      await new Promise((resolve) => encoder.stdin.once('drain', resolve));
    }
  }
  encoder.stdin.end();
  await done;
  renameSync(partial, path);
  return path;
}
