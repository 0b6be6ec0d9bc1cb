// The audio element's state as the transcript needs it: the current time (from `timeupdate`, and
// from animation frames while playing, so word highlighting keeps up), whether it plays, and seeking.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Playback {
  audioRef: React.RefObject<HTMLAudioElement | null>;
  currentMs: number;
  playing: boolean;
  seek(ms: number): void;
}

export function usePlayback(src: string | null): Playback {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [currentMs, setCurrentMs] = useState(0);
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !src) return;
    let frame = 0;
    const read = () => setCurrentMs(Math.round(audio.currentTime * 1000));
    // Animation frames while playing, quantised to 50 ms: fine enough for word highlighting (words
    // last a few hundred ms) without re-rendering the transcript on every frame.
    const tick = () => {
      setCurrentMs(Math.floor((audio.currentTime * 1000) / 50) * 50);
      frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      setPlaying(true);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onStop = () => {
      setPlaying(false);
      cancelAnimationFrame(frame);
      read();
    };
    audio.addEventListener('timeupdate', read);
    audio.addEventListener('seeked', read);
    audio.addEventListener('playing', onPlay);
    audio.addEventListener('pause', onStop);
    audio.addEventListener('ended', onStop);
    return () => {
      cancelAnimationFrame(frame);
      audio.removeEventListener('timeupdate', read);
      audio.removeEventListener('seeked', read);
      audio.removeEventListener('playing', onPlay);
      audio.removeEventListener('pause', onStop);
      audio.removeEventListener('ended', onStop);
    };
  }, [src]);

  const seek = useCallback((ms: number) => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.currentTime = ms / 1000;
    setCurrentMs(ms);
  }, []);

  return { audioRef, currentMs, playing, seek };
}
