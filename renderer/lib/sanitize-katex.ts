// What message HTML may keep inside a `.katex` element (math typeset on the server by KaTeX): the
// class names KaTeX's stylesheet knows, and the inline sizes and offsets KaTeX writes into `style`.
// Nowhere else may message HTML carry a style attribute, and even here only declarations of the
// shapes KaTeX emits survive: a hostile server cannot lay math over the app's controls.

/**
 * Classes KaTeX 0.16 (the public server's) emitted without a prefix and KaTeX 0.19 (whose stylesheet
 * the app bundles) writes as `katex-<name>`: renamed, so the server's math gets the bundled styles
 * and generic names such as `overlay` or `root` never reach the DOM.
 */
const LEGACY_NAMES = new Set(
  (
    'accent base fix hdashline hline inner newline overlay overline root rule sizing smash sout ' +
    'strut stretchy tag thinbox underline vbox'
  ).split(' '),
);

/** Class names of KaTeX's HTML output (its stylesheet's selectors and the atom kinds it marks). */
const KATEX_CLASSES = new Set(
  (
    'accent-body accent-full amsrm angl anglpad arraycolsep boldsymbol boxpad brace-center ' +
    'brace-left brace-right cancel-lap cancel-pad cd-arrow-pad cd-label-left cd-label-right ' +
    'cd-vert-arrow clap col-align-c col-align-l col-align-r delim-size1 delim-size4 delimcenter ' +
    'delimsizing eqn-num fbox fcolorbox fleqn fontsize-ensurer frac-line halfarrow-left ' +
    'halfarrow-right hide-tail large-op leqno llap mainrm mathbb mathbf mathboldfrak mathboldsf ' +
    'mathcal mathfrak mathit mathitsf mathnormal mathrm mathscr mathsf mathsfit mathtt mfrac ' +
    'mml-eqn-num mover mspace msupsub mtable mtr-glue mult munder nulldelimiter op-limits ' +
    'op-symbol overline-line pstrut reflectbox rlap small-op sqrt svg-align textbb textbf ' +
    'textboldfrak textboldsf textfrak textit textitsf textrm textscr textsf texttt ' +
    'underline-line vertical-separator vlist vlist-r vlist-s vlist-t vlist-t2 x-arrow x-arrow-pad ' +
    'mord mbin mrel mopen mclose mpunct minner mop mtight text cancel sout ' +
    'reset-size1 reset-size2 reset-size3 reset-size4 reset-size5 reset-size6 reset-size7 ' +
    'reset-size8 reset-size9 reset-size10 reset-size11 size1 size2 size3 size4 size5 size6 size7 ' +
    'size8 size9 size10 size11'
  ).split(' '),
);

/** The classes of a class attribute inside `.katex`, legacy names renamed (see LEGACY_NAMES). */
export function katexClasses(value: string): string[] {
  const out: string[] = [];
  for (const name of value.split(/\s+/)) {
    if (LEGACY_NAMES.has(name)) out.push(`katex-${name}`);
    else if (KATEX_CLASSES.has(name) || /^katex-[a-z0-9-]+$/.test(name)) out.push(name);
  }
  return out;
}

/** A length as KaTeX writes one, no larger than a screenful of math. */
const LENGTH = /^(-?)(\d{1,3}(?:\.\d{1,6})?|\.\d{1,6})(em|ex|px|pt|%)?$/;
const MAX_LENGTH = 50;
const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,20}|rgba?\(\s*[\d.%]+(\s*,\s*[\d.%]+){2,3}\s*\))$/;

const LENGTH_PROPERTIES = new Set([
  'height',
  'width',
  'min-width',
  'max-width',
  'top',
  'bottom',
  'left',
  'right',
  'margin-left',
  'margin-right',
  'margin-top',
  'margin-bottom',
  'padding-left',
  'padding-right',
  'padding-top',
  'padding-bottom',
  'border-bottom-width',
  'border-top-width',
  'border-right-width',
  'border-left-width',
  'vertical-align',
]);
const COLOR_PROPERTIES = new Set(['color', 'background-color', 'border-color']);

function allowed(property: string, value: string): boolean {
  if (LENGTH_PROPERTIES.has(property)) {
    const m = LENGTH.exec(value);
    return !!m && parseFloat(m[2]) <= MAX_LENGTH;
  }
  if (COLOR_PROPERTIES.has(property)) return COLOR.test(value);
  // KaTeX's vlists are positioned relative to themselves; nothing may be taken out of the flow.
  if (property === 'position') return value === 'relative';
  return false;
}

/** The declarations of a style attribute inside `.katex` that KaTeX could have written, or ''. */
export function katexStyle(value: string): string {
  const kept: string[] = [];
  for (const declaration of value.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const v = declaration.slice(colon + 1).trim();
    if (allowed(property, v)) kept.push(`${property}:${v}`);
  }
  return kept.length ? `${kept.join(';')};` : '';
}
