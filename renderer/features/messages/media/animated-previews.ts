// Animated previews shown still (rich-content.ts stillAnimatedImages) play while pointed at when
// web_animate_image_previews is "on_hover" (the root's data-animate-images, lib/theme.ts), as in the
// public web app; with "never" they move only in the image viewer. One listener for the document:
// rows are re-rendered from HTML strings and keep no handlers of their own.
const PLAYING = 'data-still-src';

function animatedImage(target: EventTarget | null): HTMLImageElement | null {
  return target instanceof Element
    ? target.closest<HTMLImageElement>('.content img[data-animated-src]')
    : null;
}

export function installAnimatedPreviewHover(doc: Document = document): () => void {
  const over = (e: Event) => {
    const img = animatedImage(e.target);
    if (!img || img.hasAttribute(PLAYING)) return;
    if (doc.documentElement.dataset.animateImages !== 'on_hover') return;
    img.setAttribute(PLAYING, img.getAttribute('src') ?? '');
    img.setAttribute('src', img.getAttribute('data-animated-src') ?? '');
  };
  const out = (e: Event) => {
    const img = animatedImage(e.target);
    const still = img?.getAttribute(PLAYING);
    if (!img || still == null) return;
    img.setAttribute('src', still);
    img.removeAttribute(PLAYING);
  };
  doc.addEventListener('pointerover', over);
  doc.addEventListener('pointerout', out);
  return () => {
    doc.removeEventListener('pointerover', over);
    doc.removeEventListener('pointerout', out);
  };
}
