// Theme and text size follow the user's settings: color_scheme (1 automatic, 2 dark, 3 light —
// api-notes), web_font_size_px and web_line_height_percent; emoji pictures follow emojiset (google,
// twitter, or text for `:name:`; styles/message-content.css). Applied as attributes and CSS variables
// on <html>, so no inline script or style element is needed (CSP).
import { useEffect } from 'react';

/** The ranges the server accepts (PATCH /settings) and the documented defaults (api-notes). */
export const FONT_SIZE_PX = { min: 12, max: 24, default: 16 } as const;
export const LINE_HEIGHT_PERCENT = { min: 122, max: 158, default: 140 } as const;

interface DisplaySettings {
  color_scheme?: number;
  web_font_size_px?: number;
  web_line_height_percent?: number;
  emojiset?: string;
  web_animate_image_previews?: string;
}

export function applyDisplaySettings(
  root: HTMLElement,
  settings: DisplaySettings,
  prefersDark: boolean,
): void {
  root.dataset.emojiset = settings.emojiset ?? 'google';
  // Read when an animated preview is pointed at (features/messages/media/animated-previews.ts).
  root.dataset.animateImages = settings.web_animate_image_previews ?? 'on_hover';
  const scheme = settings.color_scheme ?? 1;
  const dark = scheme === 2 || (scheme === 1 && prefersDark);
  root.dataset.theme = dark ? 'dark' : 'light';
  root.dataset.colorScheme = scheme === 1 ? 'automatic' : dark ? 'dark' : 'light';
  root.style.setProperty('--font-size', `${settings.web_font_size_px ?? FONT_SIZE_PX.default}px`);
  root.style.setProperty(
    '--line-height',
    `${(settings.web_line_height_percent ?? LINE_HEIGHT_PERCENT.default) / 100}`,
  );
}

export function useDisplaySettings(settings: DisplaySettings): void {
  const {
    color_scheme,
    web_font_size_px,
    web_line_height_percent,
    emojiset,
    web_animate_image_previews,
  } = settings;
  useEffect(() => {
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    const apply = () =>
      applyDisplaySettings(
        document.documentElement,
        {
          color_scheme,
          web_font_size_px,
          web_line_height_percent,
          emojiset,
          web_animate_image_previews,
        },
        !!query?.matches,
      );
    apply();
    query?.addEventListener?.('change', apply);
    return () => query?.removeEventListener?.('change', apply);
  }, [
    color_scheme,
    web_font_size_px,
    web_line_height_percent,
    emojiset,
    web_animate_image_previews,
  ]);
}
