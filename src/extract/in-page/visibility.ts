import { oneLine } from './text.js';

/**
 * What is never content, and what the browser does not show. Computed styles come from the live
 * page, so content hidden by the site's CSS (closed menus, modals, off-canvas panels) is left out.
 */

const NEVER_CONTENT = new Set([
  'script', 'style', 'template', 'svg', 'iframe', 'frame', 'frameset', 'object', 'embed', 'canvas',
  'video', 'audio', 'select', 'option', 'optgroup', 'textarea', 'input', 'head', 'link', 'meta', 'title', 'base',
  'map', 'area', 'datalist', 'source', 'track', 'param', 'slot', 'math-field',
]);

/**
 * With scripts on, `<noscript>` holds unparsed text Chromium does not show; with scripts off (the
 * stored pages of the bench) it holds parsed elements, and they are what the page shows.
 */
function isRawNoscript(element: Element): boolean {
  return element.firstElementChild === null;
}

/** Up to this long, a parsed `<noscript>` that speaks of JavaScript is a notice about the reader's browser. */
const MAX_SCRIPT_NOTICE = 600;
/** Shorter than this, a parsed `<noscript>` is a notice or a tracking pixel, whatever it says. */
const MAX_SHORT_NOSCRIPT = 200;
/** Text clipped to this many pixels or fewer each way is for screen readers (`sr-only` boxes are 1x1). */
const SCREEN_READER_BOX = 2;
const JAVASCRIPT = /\bjavascript\b/i;

/**
 * "Please enable JavaScript" and tracking pixels: a parsed `<noscript>` with little text, or one
 * about the browser ("JavaScript is disabled. For a better experience, please enable it, then
 * reload"). Longer fallbacks (a menu, a grid of products) are left to the other rules.
 */
function isNoscriptNotice(element: Element): boolean {
  const text = (element.textContent ?? '').trim();
  return text.length < MAX_SHORT_NOSCRIPT || (text.length <= MAX_SCRIPT_NOTICE && JAVASCRIPT.test(text));
}

/** Buttons are controls, except the toggles of accordions (an FAQ question is often one). */
function isControlButton(element: Element): boolean {
  return !element.hasAttribute('aria-expanded') && !element.hasAttribute('aria-controls');
}

/** Carousel libraries clone slides to loop (slick, swiper, owl, splide, glide): copies, not content. */
const CLONE_CLASS = /(?:^|\s)(?:slick-cloned|swiper-slide-duplicate|cloned|splide__slide--clone|glide__slide--clone)(?:\s|$)/;

/** The usual names of "visually hidden" utility classes (a label for screen readers only). */
const SCREEN_READER_CLASS = /(?:^|[\s_-])(?:sr-?only|visually-?hidden|hidden-visually|screen-?reader|clipped|offscreen|a11y|assistive)/i;

/** Classes that show an element on small screens only (`md:hidden`, `d-lg-none`, "mobile-only"). */
const MOBILE_ONLY_CLASS =
  /(?:^|\s)(?:(?:is-|show-|visible-)?mobile(?:-only)?|(?:elementor-)?hid(?:e|den)-desktop|(?:md|lg|xl):hidden|d-(?:md|lg|xl)-none|visible-(?:xs|sm))(?:\s|$)/;

function sameText(a: Element, b: Element | null): boolean {
  return b !== null && a.localName === b.localName && oneLine(a.textContent ?? '') === oneLine(b.textContent ?? '');
}

/**
 * The small-screen copy of a block set beside its desktop twin (a slide, a menu, a hero): the
 * page's stylesheet shows one of the two; without it both would be read.
 */
function isMobileTwin(element: Element, classes: string): boolean {
  if (!MOBILE_ONLY_CLASS.test(classes)) return false;
  return sameText(element, element.previousElementSibling) || sameText(element, element.nextElementSibling);
}

/**
 * The panels of a tab set other than the one open (the same steps for another language, the
 * specifications beside a description): content a reader reaches with one click, like the body
 * of a closed `<details>`.
 */
function isTabPanel(element: Element): boolean {
  return element.getAttribute('role') === 'tabpanel';
}

/** The toggle of a collapsed panel: "Read more", an accordion's closed heading. */
function isClosedToggle(element: Element | null): boolean {
  if (!element) return false;
  return element.getAttribute('aria-expanded') === 'false' || element.querySelector('[aria-expanded="false"]') !== null;
}

/** Above this share of links a hidden panel is a menu or a list of links, not text. */
const PANEL_MAX_LINK_SHARE = 0.5;
/** Shorter, a hidden box beside a toggle is a notice kept for some browsers or users ("IE 11 is not supported"). */
const PANEL_MIN_TEXT = 200;

/**
 * The rest of a text behind "Read more" (a book's excerpt on a shop page, an accordion's answer):
 * hidden beside a closed toggle until a click, and a text of some length made mostly of words,
 * where a dropdown menu beside its button is mostly links.
 */
function isCollapsedText(element: Element): boolean {
  if (!isClosedToggle(element.previousElementSibling) && !isClosedToggle(element.nextElementSibling)) return false;
  const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  let linkText = 0;
  for (const link of Array.from(element.querySelectorAll('a'))) linkText += (link.textContent ?? '').trim().length;
  return text >= PANEL_MIN_TEXT && linkText <= text * PANEL_MAX_LINK_SHARE;
}

/**
 * Whether an element is kept at all. Never content: scripts, media, form controls, notices in
 * `<noscript>`, carousel clones. Hidden by the page: `hidden` or `display: none` (on the element
 * or an ancestor). `checkVisibility` is the fast path; it also says false for boxless
 * `display: contents` and for the content of closed `<details>` (content, shown on a click), so
 * those get a second look; so do tab panels and text collapsed beside a closed toggle.
 * `visibility: hidden` is not followed: pages hide their whole body that way until their scripts
 * or stylesheets arrive, and menus hidden that way are pruned as navigation anyway. Text clipped
 * to a pixel for screen readers ("Opens in a new window", a repeat of the title) is not on the
 * page a reader sees; it is named by class first, so only those few elements are measured. Runs
 * once per element, so the class is read once.
 */
export function isKept(element: Element, showHidden: boolean): boolean {
  const name = element.localName;
  if (NEVER_CONTENT.has(name)) return false;
  if (name === 'button' && isControlButton(element)) return false;
  if (name === 'noscript' && (isRawNoscript(element) || isNoscriptNotice(element))) return false;
  const classes = element.getAttribute('class');
  if (classes !== null && CLONE_CLASS.test(classes)) return false;
  if (showHidden) return true;
  if (!element.checkVisibility()) return getComputedStyle(element).display !== 'none' || isTabPanel(element) || isCollapsedText(element);
  if (classes === null) return true;
  if (isMobileTwin(element, classes)) return false;
  if (!SCREEN_READER_CLASS.test(classes)) return true;
  const box = element.getBoundingClientRect();
  return box.width > SCREEN_READER_BOX || box.height > SCREEN_READER_BOX;
}

/**
 * Elements kept at all (both modes): memoised so each element's style is read once. With
 * `showHidden`, what the page hides is kept too: the fallback for pages that hide their content
 * until their scripts have run.
 */
export function createVisibilityFilter(showHidden = false): (element: Element) => boolean {
  const verdicts = new Map<Element, boolean>();
  return (element) => {
    let keep = verdicts.get(element);
    if (keep === undefined) {
      keep = isKept(element, showHidden);
      verdicts.set(element, keep);
    }
    return keep;
  };
}
