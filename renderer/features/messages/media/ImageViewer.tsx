// The image viewer (lightbox) over the app: one image of the conversation at a time, its thumbnail
// at once and the original swapped in when loaded, zoom (buttons, wheel, double-click, +/-) and pan
// when zoomed, previous/next (buttons, arrow keys), download of the original, the sender and date.
// Esc or Close closes it. A modal dialog (lib/ui/Dialog) painting the whole window: the library
// keeps the focus inside, closes on Esc and ends every key there, before the app's shortcuts.
import { useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { ModalDialog } from '../../../lib/ui/Dialog';
import { formatDateTime } from '../../../lib/format';
import { useTwentyFourHour } from '../../../store/hooks';
import { mediaUrl } from '../../../bridge/media';
import { api } from '../../../bridge/api';
import type { ViewerItem } from './viewer-items';

const MIN_SCALE = 1;
const MAX_SCALE = 8;
const STEP = 1.25;
const DOUBLE_CLICK_SCALE = 2.5;

interface Zoom {
  scale: number;
  x: number;
  y: number;
}
const FIT: Zoom = { scale: 1, x: 0, y: 0 };

const clampScale = (scale: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));

export interface ImageViewerProps {
  accountId: string;
  items: readonly ViewerItem[];
  startIndex: number;
  onClose(): void;
}

/** `/user_uploads/download/<path_id>`: the server sends the original as a download. */
function downloadPath(realmPath: string): string {
  return realmPath.replace(/^\/user_uploads\//, '/user_uploads/download/');
}

function Download({ accountId, item }: { accountId: string; item: ViewerItem }) {
  const [note, setNote] = useState('');
  // In Electron the window cannot download: main saves the original where the person chooses.
  if (item.realmPath && window.location.protocol === 'app:') {
    const path = item.realmPath;
    return (
      <button
        type="button"
        onClick={() =>
          void api()
            .saveUpload({ accountId, path })
            .then((saved) => setNote(saved ? 'Saved' : ''))
            .catch(() => setNote('Could not save'))
        }
      >
        Download{note ? ` (${note})` : ''}
      </button>
    );
  }
  const href = item.realmPath ? mediaUrl(accountId, downloadPath(item.realmPath)) : item.fullSrc;
  return (
    <a className="button" href={href ?? undefined} download={item.name}>
      Download
    </a>
  );
}

export function ImageViewer({ accountId, items, startIndex, onClose }: ImageViewerProps) {
  const [index, setIndex] = useState(startIndex);
  const [zoom, setZoom] = useState<Zoom>(FIT);
  const [fullLoaded, setFullLoaded] = useState(false);
  const twentyFourHour = useTwentyFourHour();
  const drag = useRef<{ x: number; y: number; from: Zoom } | null>(null);
  const item = items[index];
  const count = items.length;

  const go = (step: number) => {
    if (count < 2) return;
    setIndex((i) => (i + step + count) % count);
    setZoom(FIT);
    setFullLoaded(false);
  };
  const zoomBy = (factor: number) =>
    setZoom((z) => {
      const scale = clampScale(z.scale * factor);
      return scale === 1 ? FIT : { ...z, scale };
    });

  // The viewer's own keys; Esc and Tab are the dialog's.
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const handled = ((): boolean => {
      switch (e.key) {
        case 'ArrowLeft':
          go(-1);
          return true;
        case 'ArrowRight':
          go(1);
          return true;
        case '+':
        case '=':
          zoomBy(STEP);
          return true;
        case '-':
        case '_':
          zoomBy(1 / STEP);
          return true;
        case '0':
          setZoom(FIT);
          return true;
        default:
          return false;
      }
    })();
    if (handled) e.preventDefault();
  };

  if (!item) return null;

  const onWheel = (e: WheelEvent) => zoomBy(Math.exp(-e.deltaY * 0.002));
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (zoom.scale === 1 || e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, from: zoom };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    setZoom({
      scale: start.from.scale,
      x: start.from.x + (e.clientX - start.x),
      y: start.from.y + (e.clientY - start.y),
    });
  };
  const endDrag = () => {
    drag.current = null;
  };
  const transform = `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})`;

  return (
    <ModalDialog
      label={`Image viewer: ${item.name}`}
      className="media-viewer"
      bare
      onClose={onClose}
      onKeyDown={onKey}
      // On the viewer itself, so its keys work at once and Tab starts at its first control.
      onOpenAutoFocus={(e) => {
        e.preventDefault();
        (e.currentTarget as HTMLElement).focus();
      }}
    >
      <div className="media-viewer-bar">
        <div className="media-viewer-info">
          <span className="media-viewer-sender">{item.senderName}</span>
          <time dateTime={new Date(item.timestamp * 1000).toISOString()}>
            {formatDateTime(item.timestamp, twentyFourHour)}
          </time>
          <span className="media-viewer-name" title={item.name}>
            {item.name}
          </span>
        </div>
        <div className="media-viewer-actions">
          <button
            type="button"
            onClick={() => zoomBy(1 / STEP)}
            aria-label="Zoom out"
            disabled={zoom.scale === 1}
          >
            −
          </button>
          <span className="media-viewer-scale" aria-live="polite">
            {Math.round(zoom.scale * 100)}%
          </span>
          <button
            type="button"
            onClick={() => zoomBy(STEP)}
            aria-label="Zoom in"
            disabled={zoom.scale === MAX_SCALE}
          >
            +
          </button>
          <button type="button" onClick={() => setZoom(FIT)} disabled={zoom.scale === 1}>
            Fit
          </button>
          <Download accountId={accountId} item={item} />
          <button type="button" className="media-viewer-close" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
      </div>
      <div
        className={`media-viewer-stage${zoom.scale > 1 ? ' zoomed' : ''}`}
        onWheel={onWheel}
        onDoubleClick={() =>
          setZoom((z) => (z.scale > 1 ? FIT : { ...FIT, scale: DOUBLE_CLICK_SCALE }))
        }
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onClick={(e) => {
          // A click on the dark background (not the picture) closes, as in the web app.
          if (e.target === e.currentTarget && zoom.scale === 1) onClose();
        }}
      >
        {fullLoaded ? null : (
          <img
            className="media-viewer-image"
            src={item.thumbSrc}
            alt=""
            style={{ transform }}
            draggable={false}
          />
        )}
        <img
          key={item.key}
          className={`media-viewer-image${fullLoaded ? '' : ' loading'}`}
          src={item.fullSrc}
          alt={item.name}
          style={{ transform }}
          draggable={false}
          onLoad={() => setFullLoaded(true)}
        />
      </div>
      {count > 1 ? (
        <>
          <button
            type="button"
            className="media-viewer-nav prev"
            onClick={() => go(-1)}
            aria-label="Previous image"
          >
            ‹
          </button>
          <button
            type="button"
            className="media-viewer-nav next"
            onClick={() => go(1)}
            aria-label="Next image"
          >
            ›
          </button>
        </>
      ) : null}
      <div className="media-viewer-count">
        {index + 1} of {count}
      </div>
    </ModalDialog>
  );
}
