// jsdom lays nothing out, so a virtualised list would see a viewport 0 px high and render no rows.
// This gives the transcript's scroll box a 400 px viewport and every other element a 40 px height,
// and makes scrollTop/scrollTo behave as in a browser (moving it fires `scroll`). Returns the undo.
export const VIEWPORT_PX = 400;
export const ROW_PX = 40;

export function fakeTranscriptLayout(): () => void {
  const descriptors = [
    'clientHeight',
    'offsetHeight',
    'clientWidth',
    'scrollTop',
    'scrollHeight',
  ] as const;
  const saved = descriptors.map((name) => {
    const owner = name === 'offsetHeight' ? HTMLElement.prototype : Element.prototype;
    return { owner, name, descriptor: Object.getOwnPropertyDescriptor(owner, name) };
  });
  const savedRect = Element.prototype.getBoundingClientRect;
  const savedScrollTo = Element.prototype.scrollTo;

  const height = (el: Element) =>
    el.classList.contains('manifest-cues-scroll') ? VIEWPORT_PX : ROW_PX;
  const scrollTops = new WeakMap<Element, number>();
  const define = (owner: object, name: string, get: (el: Element) => number) =>
    Object.defineProperty(owner, name, {
      configurable: true,
      get(this: Element) {
        return get(this);
      },
    });
  define(Element.prototype, 'clientHeight', height);
  define(HTMLElement.prototype, 'offsetHeight', height);
  define(Element.prototype, 'clientWidth', () => 600);
  // A scroll box's content is as tall as its children say (the virtualizer sets the list's height).
  define(Element.prototype, 'scrollHeight', (el) =>
    Math.max(
      height(el),
      [...el.children].reduce(
        (sum, child) => sum + (parseFloat((child as HTMLElement).style?.height ?? '') || 0),
        0,
      ),
    ),
  );
  Object.defineProperty(Element.prototype, 'scrollTop', {
    configurable: true,
    get(this: Element) {
      return scrollTops.get(this) ?? 0;
    },
    set(this: Element, value: number) {
      scrollTops.set(this, Math.max(0, value));
    },
  });
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    this.scrollTop = typeof options === 'number' ? options : (options?.top ?? this.scrollTop);
    this.dispatchEvent(new Event('scroll'));
  } as Element['scrollTo'];
  Element.prototype.getBoundingClientRect = function (this: Element) {
    const h = height(this);
    return { x: 0, y: 0, top: 0, left: 0, width: 600, height: h, right: 600, bottom: h } as DOMRect;
  };

  return () => {
    for (const { owner, name, descriptor } of saved) {
      if (descriptor) Object.defineProperty(owner, name, descriptor);
      else delete (owner as unknown as Record<string, unknown>)[name];
    }
    Element.prototype.getBoundingClientRect = savedRect;
    Element.prototype.scrollTo = savedScrollTo;
  };
}
