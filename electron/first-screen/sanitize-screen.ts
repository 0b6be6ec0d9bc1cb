// The first screen's markup comes from a page, and it is inserted into the next launch's page before
// the app runs: main cleans it again rather than trusting the page did (renderer/features/first-screen
// drops test ids and typed text; this drops anything that could run, load or leak). The allow-list is
// what the app's chat DOM uses: its elements, lucide's inline SVG icons, KaTeX's MathML, class and
// ARIA attributes, the workspace's layout attributes, and inline styles limited to the layout and
// colour values React sets (virtual rows' offsets, channel colours). Anything else is dropped.
import sanitizeHtml from 'sanitize-html';

const HTML_TAGS = [
  'a',
  'abbr',
  'article',
  'aside',
  'b',
  'blockquote',
  'br',
  'button',
  'caption',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'details',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'fieldset',
  'form',
  'legend',
  'optgroup',
  'option',
  'output',
  'progress',
  'select',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'i',
  'img',
  'input',
  'ins',
  'kbd',
  'label',
  'li',
  'main',
  'mark',
  'nav',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'section',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'time',
  'tr',
  'u',
  'ul',
  'var',
  'wbr',
];
/** lucide-react's icons and the few hand-drawn ones. */
const SVG_TAGS = ['svg', 'g', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect'];
/** KaTeX's MathML (the visible rendering is spans; this is what screen readers read). */
const MATHML_TAGS = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mpadded',
  'mphantom',
  'mstyle',
];

const SVG_GEOMETRY = [
  'viewbox',
  'viewBox',
  'xmlns',
  'width',
  'height',
  'fill',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'd',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'points',
  'transform',
  'opacity',
  'fill-rule',
  'clip-rule',
];

/** Offsets and sizes: plain numbers with a unit. */
const LENGTH = /^-?\d+(\.\d+)?(px|%|em|rem|vh|vw)?$/;
/** The virtual rows' offsets: translate, translateX or translateY of lengths. */
const TRANSLATE = /^translate[XY]?\(\s*-?\d+(\.\d+)?(px|%)?(\s*,\s*-?\d+(\.\d+)?(px|%)?)?\s*\)$/;
/** A colour as React writes one: hex, rgb()/hsl() of numbers, or a keyword. No url(), no var(). */
const COLOUR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\(\s*[\d.%\s,/]+\)|[a-z]{3,20})$/i;

const LAYOUT_STYLES: Record<string, RegExp[]> = {
  position: [/^(absolute|relative|sticky|static)$/],
  transform: [TRANSLATE],
  background: [COLOUR],
  'background-color': [COLOUR],
  'border-left-color': [COLOUR],
  color: [COLOUR],
};
for (const property of [
  'top',
  'left',
  'right',
  'bottom',
  'width',
  'height',
  'min-width',
  'min-height',
  'max-width',
  'max-height',
]) {
  LAYOUT_STYLES[property] = [LENGTH];
}

/** Realm media through the host's /media route, and the bundle's own pictures. */
function sameOriginImage(src: string | undefined): boolean {
  if (!src) return false;
  return /^\/media\/[a-z0-9-]{1,64}\/[^\s\\]*$/i.test(src) || /^\.\/assets\/[\w.-]+$/.test(src);
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...HTML_TAGS, ...SVG_TAGS, ...MATHML_TAGS],
  // Scripts, styles, frames, media elements and the like go with their content.
  disallowedTagsMode: 'completelyDiscard',
  allowedAttributes: {
    '*': [
      'class',
      'role',
      'aria-*',
      'title',
      'alt',
      'dir',
      'lang',
      'hidden',
      'style',
      'data-first-screen-*',
      // The workspace's layout (renderer/shell/layout.ts) and what styles select on.
      'data-sidebar',
      'data-people',
      'data-user-id',
      'data-group',
      'data-initials',
      'data-highlighted',
      'data-disabled',
    ],
    a: ['href'],
    img: ['src', 'width', 'height', 'loading'],
    input: ['type', 'placeholder', 'checked', 'disabled', 'size'],
    // No action: the copy is inert, and a form there never submits anywhere.
    form: [],
    option: ['selected', 'disabled'],
    optgroup: ['label'],
    select: ['disabled'],
    progress: ['value', 'max'],
    textarea: ['placeholder', 'rows', 'disabled'],
    button: ['type', 'disabled'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    time: ['datetime'],
    ol: ['start'],
    details: ['open'],
    ...Object.fromEntries(SVG_TAGS.map((tag) => [tag, SVG_GEOMETRY])),
    annotation: ['encoding'],
    math: ['xmlns', 'display'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  allowedStyles: { '*': LAYOUT_STYLES },
  // Both parsers keep SVG's camel-cased viewBox.
  parser: { lowerCaseAttributeNames: false },
  exclusiveFilter: (frame) => frame.tag === 'img' && !sameOriginImage(frame.attribs.src),
};

/** `html` with only what the allow-list above lets through. */
export function sanitizeFirstScreen(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** A marked time in markup this module cleaned: its moment, then its mark (the capture adds it last). */
const MARKED_TIME = /(<time\b[^>]*?\sdatetime=")([^"]*)("[^>]*?\sdata-first-screen-time=")/g;

/**
 * `html`, as sanitizeFirstScreen wrote it, with each time the chat labels (data-first-screen-time,
 * marked by the capture: renderer/lib/first-screen-times.ts) moved by `shiftSeconds`: a first
 * launch's realm moves the demo's dates by the time since the build seeded it, and the build's copy
 * of the demo moves with them. Times inside messages (a `<time>` the sender wrote) are not marked,
 * and stay as the message says them. Text, not a parse: the markup is already clean, and cleaning
 * it again cost a first launch's main about 110 ms of CPU (cold) on the path to the page.
 */
export function shiftFirstScreenTimes(html: string, shiftSeconds: number): string {
  return html.replace(MARKED_TIME, (whole, before: string, datetime: string, after: string) => {
    const at = Date.parse(datetime);
    if (Number.isNaN(at)) return whole;
    return `${before}${new Date(at + shiftSeconds * 1000).toISOString()}${after}`;
  });
}
