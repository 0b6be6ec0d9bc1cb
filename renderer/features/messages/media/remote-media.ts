// Images and videos from other hosts, loaded only when the person clicks their placeholder: main
// fetches the one file (fetchExternalMedia: no credentials, image/video only, size-capped) and the
// page shows it from a blob: URL, so the CSP keeps refusing every remote load. The sanitizer marks
// such media (data-remote-src on the img or video, data-remote-host on its link).
import { api, errorText } from '../../../bridge/api';

/** Blob URLs of media already fetched, by remote URL: a row scrolled away and back loads at once. */
const loaded = new Map<string, Promise<string>>();

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** A blob: URL with the bytes of a remote image or video (fetched once per page). */
export function remoteMediaUrl(url: string): Promise<string> {
  let found = loaded.get(url);
  if (!found) {
    found = api()
      .fetchExternalMedia({ url })
      .then(({ contentType, contentBase64 }) =>
        URL.createObjectURL(new Blob([decode(contentBase64)], { type: contentType })),
      );
    // A failure may be passing (the host was down): the next click asks again.
    found.catch(() => loaded.delete(url));
    loaded.set(url, found);
  }
  return found;
}

/** The blob: URL of a remote image already loaded on this page, if any. */
export async function loadedRemoteUrl(url: string): Promise<string | undefined> {
  const found = loaded.get(url);
  return found ? found.catch(() => undefined) : undefined;
}

/** The media element of a remote placeholder link, if the link is one. */
export function remoteMediaOf(link: Element): HTMLImageElement | HTMLVideoElement | null {
  if (!link.hasAttribute('data-remote-host')) return null;
  return link.querySelector<HTMLImageElement | HTMLVideoElement>(
    'img[data-remote-src], video[data-remote-src]',
  );
}

/** Loads the media behind a placeholder link into the page; the placeholder shows progress. */
export async function loadRemoteMedia(link: HTMLElement): Promise<void> {
  const media = remoteMediaOf(link);
  const url = media?.getAttribute('data-remote-src');
  if (!media || !url || link.dataset.remoteState === 'loading') return;
  link.dataset.remoteState = 'loading';
  try {
    const blobUrl = await remoteMediaUrl(url);
    await new Promise<void>((resolve, reject) => {
      const ready = media instanceof HTMLVideoElement ? 'loadedmetadata' : 'load';
      media.addEventListener(ready, () => resolve(), { once: true });
      media.addEventListener('error', () => reject(new Error('The file could not be shown')), {
        once: true,
      });
      // Hidden behind the placeholder until loaded, and a lazy image that is not shown never loads.
      media.removeAttribute('loading');
      media.src = blobUrl;
    });
    link.removeAttribute('data-remote-host');
    link.removeAttribute('aria-label');
    delete link.dataset.remoteState;
    link.dataset.remoteLoaded = '';
  } catch (error) {
    media.removeAttribute('src');
    link.dataset.remoteState = 'failed';
    link.title = `Could not load: ${errorText(error)}`;
  }
}
