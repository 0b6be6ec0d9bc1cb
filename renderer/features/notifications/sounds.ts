// Notification sounds, synthesized with WebAudio: the public server's sounds are recordings Tributary
// does not ship, so each name plays its own short pattern of tones, and "none" plays nothing. The
// names are the ones the public server offers (its available_notification_sounds), used when the
// server does not list its own.

export const NOTIFICATION_SOUNDS = [
  'ascend',
  'beep_boop',
  'bink',
  'bright',
  'brlip',
  'chime',
  'deep tom',
  'ding',
  'double tap',
  'down',
  'dry bongos',
  'dutdut',
  'fast ascend',
  'flute',
  'friendly',
  'kick roll',
  'loud tintong',
  'metallic snare',
  'pan',
  'shaker',
  'simple',
  'stairs',
  'subtle',
  'swish',
  'tintong',
  'up',
  'wood block',
  'zaping',
  'zing',
  'zulip',
] as const;

/** One tone: frequency in Hz, start and length in seconds. */
interface Tone {
  frequency: number;
  at: number;
  length: number;
}

// A pentatonic scale keeps every generated pattern pleasant.
const SCALE = [523.25, 587.33, 659.25, 783.99, 880, 1046.5, 1174.66, 1318.51];

function hash(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The tones of a sound: the default "zulip" is a rising two-note chime; others derive from the name. */
export function soundPattern(name: string): Tone[] {
  if (name === 'zulip') {
    return [
      { frequency: SCALE[2], at: 0, length: 0.12 },
      { frequency: SCALE[5], at: 0.1, length: 0.22 },
    ];
  }
  const h = hash(name);
  const notes = 1 + (h % 3);
  const tones: Tone[] = [];
  for (let i = 0; i < notes; i++) {
    const frequency = SCALE[(h >>> (3 + i * 3)) % SCALE.length];
    tones.push({ frequency, at: i * 0.11, length: i === notes - 1 ? 0.2 : 0.1 });
  }
  return tones;
}

let context: AudioContext | null = null;

/** Plays the named sound; false when it cannot (no audio, or "none"). */
export function playNotificationSound(name: string): boolean {
  if (name === 'none' || typeof AudioContext === 'undefined') return false;
  try {
    context ??= new AudioContext();
    // Not awaited: before any user gesture a browser may keep the context suspended for good, and
    // a sound that cannot play must not hold anything up.
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const start = context.currentTime + 0.01;
    for (const tone of soundPattern(name)) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = tone.frequency;
      // A quick attack and an exponential fade, so the tones do not click.
      gain.gain.setValueAtTime(0.0001, start + tone.at);
      gain.gain.exponentialRampToValueAtTime(0.25, start + tone.at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + tone.at + tone.length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + tone.at);
      oscillator.stop(start + tone.at + tone.length + 0.02);
    }
    return true;
  } catch {
    return false;
  }
}
