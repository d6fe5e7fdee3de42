import {
  hasArticleMetaName,
  hasBoilerplateName,
  hasBoilerplateRole,
  hasChromeName,
  hasComponentPartName,
  hasCommentName,
  hasOverlayName,
  hasContentName,
  hasContentPartBoilerplateName,
  hasControlName,
  hasCustomerReviewName,
  hasProductDetailName,
  hasProductExtraName,
  HEADING_SELECTOR,
  isChromeElement,
  isHeading,
  isNamedHeaderOnly,
} from './class-signals.js';
import { isItemList } from './item-lists.js';
import { holdsH1OutsideLinks } from './headline.js';
import { type ElementStats, holdsParagraphsInRow, linkDensity, type StatsMap } from './measure.js';
import { lowerCaseLetterRuns, oneLine } from './text.js';

/**
 * What boilerplate looks like: the predicates the rule table (`boilerplate-rules.ts`) is made of,
 * and the options that say what kind of page and pass they are asked on. The walk that applies
 * the table is `prune.ts`.
 */

export interface PruneOptions {
  /** The area is the whole body: site chrome (header, footer, menus) is still in it. */
  includesChrome: boolean;
  /** Comment threads are the content (forums). */
  keepComments: boolean;
  /** A thread (a forum, a Q&A page): its counts, ranks and status are furniture (`thread-furniture.ts`). */
  threadPage: boolean;
  /** A single product: other products (cards), reviews and purchase forms are not its content. */
  productPage: boolean;
  /** Documentation: a link list set in its text points to more of it. */
  docsPage?: boolean;
  /** A shop's page (a product or a listing of them): customers' reviews of its goods are not its content. */
  dropReviews: boolean;
  /** Narrowed to an article body: also drop bylines, captions, tag lists and link lists. */
  articleBody: boolean;
  /** With `articleBody`: the headline goes too (it is the title, not the body). */
  dropHeadline?: boolean;
  /** The page's headline (`headline.ts`): blocks of links above it are navigation. */
  headline?: Element;
  /** With `articleBody`: headings that are one link (teasers of other articles) go too. */
  dropTeasers?: boolean;
  /** For debugging: filled with the rule that pruned each element. */
  reasons?: Map<Element, string>;
}

/*
 * The sizes and shares below are Pluck's own, set by hand against both dev sets
 * (docs/extraction-history.md says when and why); text sizes are characters of visible text (an
 * element's with all it holds), shares are of the element's text unless said otherwise.
 */

/** Longer than this, a line is a sentence, not a dateline. */
const MAX_DATELINE = 80;
/** A date with a year has at least this many digits ("2018"; "12/11/2018" has eight). */
const DATE_DIGITS = 4;
/** A dateline has at most this many words besides the date and `DATE_WORDS` ("by", "posted"...). */
const DATELINE_OTHER_WORDS = 3;

const YEAR = /(?:^|\D)(?:19|20)\d\d(?:\D|$)/;
/** Words a dateline is made of besides numbers: months, weekdays, "posted", "updated", "am/pm". */
const DATE_WORDS =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$|^(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?$|^(?:am|pm|gmt|utc|[pecm][sd]t|bst|cet|cest|ist|jst|aest|posted|published|updated|on|at|by|last|modified|date|st|nd|rd|th)$/;

/** "Posted: Fri 6:45 PM, Feb 16, 2018", "November 12, 2018", a lone `<time>`: a dateline, not a sentence. */
function isDateline(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_DATELINE) return false;
  const text = element.textContent ?? '';
  // A date first (most short elements hold none), then few words besides it.
  const dated = element.localName === 'time' || (YEAR.test(text) && (text.match(/\d/g)?.length ?? 0) >= DATE_DIGITS) || element.querySelector('time') !== null;
  return dated && lowerCaseLetterRuns(text).filter((word) => !DATE_WORDS.test(word)).length <= DATELINE_OTHER_WORDS;
}

/** "Reading Time: 11 minutes", "9 min read": a byline's estimate, not a sentence. */
const READING_TIME = /^(?:estimated )?reading time:?\s*(?:about |~)?\d+\s*min(?:ute)?s?\.?$|^\d+\s*min(?:ute)?s?\s+read$/i;

/** Longer than this, a line holds more than a reading-time estimate. */
const MAX_READING_TIME = 40;

function isReadingTime(element: Element, own: ElementStats): boolean {
  return own.text <= MAX_READING_TIME && READING_TIME.test(oneLine(element.textContent ?? ''));
}

/**
 * "5 hours ago", "Posted 2 days ago", "3h ago", "vor 5 Stunden", "il y a 2 jours", "5 часов
 * назад": a card's or a post's age, counted from when the page was fetched, so wrong as soon as
 * the text is stored. Absolute dates are the dateline rule's.
 */
const RELATIVE_TIME = new RegExp(
  [
    String.raw`^(?:(?:posted|updated|edited|published|last updated|last active|active)\s*:?\s+)?(?:about |over |almost |just )?(?:\d+|an?|one) ?(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mos?|months?|y|yrs?|years?) ago\.?$`,
    String.raw`^(?:vor|il y a|hace|há) (?:\d+|einer?|einem|une?|una?|uma?) ?(?:sek(?:unden?)?|min(?:uten?)?|std|stunden?|tag(?:en)?|wochen?|monat(?:en)?|jahr(?:en)?|secondes?|minutes?|heures?|jours?|semaines?|mois|ans?|segundos?|minutos?|horas?|d[ií]as?|semanas?|mes(?:es)?|anos?|años?)\.?$`,
    String.raw`^(?:\d+|un|una) (?:second[io]|minut[io]|or[ae]|giorn[io]|settiman[ae]|mes[ei]|ann[io]) fa$`,
    String.raw`^\d+ (?:seconden|minuten|uur|dagen|dag|weken|week|maanden|maand|jaar) geleden$`,
    String.raw`^\d+ (?:секунд[уы]?|минут[уы]?|час(?:а|ов)?|д(?:ень|ня|ней)|недел[юиь]|месяц(?:а|ев)?|год(?:а)?|лет) назад$`,
  ].join('|'),
  'i',
);
/**
 * Every age above starts or ends with one of these. The pattern is asked only then: it takes a
 * fresh V8 a millisecond to compile, and the extractor starts afresh on every page.
 */
const AGE_ENDS = ['ago', 'ago.', 'fa', 'geleden', 'назад'];
const AGE_STARTS = ['vor', 'il y a', 'hace', 'há'];
const SPACE = /\s/;

/** `text` ends with `word` as a word of its own ("3h ago", not "Chicago"). */
function endsWithWord(text: string, word: string): boolean {
  return text.endsWith(word) && SPACE.test(text.charAt(text.length - word.length - 1));
}

function startsWithWord(text: string, word: string): boolean {
  return text.startsWith(word) && SPACE.test(text.charAt(word.length));
}

/** Shorter than this ("3h ago") or longer, a line is not an age. */
const MIN_RELATIVE_TIME = 5;
const MAX_RELATIVE_TIME = 40;

export function isRelativeTime(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_RELATIVE_TIME || own.text < MIN_RELATIVE_TIME) return false;
  const text = (element.textContent ?? '').trim().toLowerCase();
  const marked = AGE_ENDS.some((end) => endsWithWord(text, end)) || AGE_STARTS.some((start) => startsWithWord(text, start));
  return marked && RELATIVE_TIME.test(oneLine(text));
}

/**
 * "Loading…", "Memuat...", "Загрузка…": what a widget shows until its script fills it, left as is
 * when the script did not run or its request failed. Only with the ellipsis: a docs section may
 * be headed "Loading".
 */
const LOADING =
  /^(?:loading|please wait|memuat|chargement|chargement en cours|wird geladen|laden|cargando|carregando|caricamento|ładowanie|загрузка|завантаження)\s?(?:\.\.\.|…)$/i;

/** Longer than this, a line is more than a placeholder. */
const MAX_LOADING = 30;

export function isLoadingPlaceholder(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_LOADING || own.text === 0) return false;
  const text = (element.textContent ?? '').trim();
  return (text.endsWith('…') || text.endsWith('...')) && LOADING.test(oneLine(text));
}

export function nonLinkText(stats: ElementStats | undefined): number {
  return stats ? stats.text - stats.linkText : 0;
}

/** A paragraph is a line of links past this link density, and while shorter than `MAX_LINK_PARAGRAPH`. */
const LINK_PARAGRAPH_LINKS = 0.8;
const MAX_LINK_PARAGRAPH = 300;
/** Any other block is a link list past this link density, with less than `MAX_LINK_LIST_OTHER_TEXT` outside its links. */
const LINK_LIST_LINKS = 0.5;
const MAX_LINK_LIST_OTHER_TEXT = 200;

function isLinkList(element: Element, own: ElementStats): boolean {
  // A list item or heading that is one link is a sentence of the text, not a link list.
  if (element.localName === 'a' || element.localName === 'li' || isHeading(element)) return false;
  const density = linkDensity(own);
  const linky =
    element.localName === 'p'
      ? density > LINK_PARAGRAPH_LINKS && own.text < MAX_LINK_PARAGRAPH
      : density > LINK_LIST_LINKS && nonLinkText(own) < MAX_LINK_LIST_OTHER_TEXT;
  // Nor is the emphasis inside a link (`<a><b>Supervised learning</b></a>`): it is the link's words.
  return linky && !element.parentElement?.closest('a');
}

/** A paragraph or code block holds at least this share of its text outside links to be part of the text. */
const TEXT_BLOCK_OTHER_TEXT = 0.5;

/** A block of the text: a heading, or a paragraph or code mostly outside links. */
function isTextBlock(element: Element, stats: StatsMap): boolean {
  const own = stats.get(element);
  if (!own) return false;
  if (isHeading(element)) return true;
  return (element.localName === 'p' || element.localName === 'pre') && nonLinkText(own) >= own.text * TEXT_BLOCK_OTHER_TEXT;
}

function siblingWithText(element: Element, stats: StatsMap, forward: boolean): Element | null {
  const step = (current: Element) => (forward ? current.nextElementSibling : current.previousElementSibling);
  for (let sibling = step(element); sibling; sibling = step(sibling)) {
    if ((stats.get(sibling)?.text ?? 0) > 0) return sibling;
  }
  return null;
}

/**
 * A link list between blocks of the text ("Overview of Redis strings", "Redis string command
 * reference" under a section on strings), not at the body's edges where navigation and footers sit.
 */
function isSetInText(element: Element, stats: StatsMap): boolean {
  const before = siblingWithText(element, stats, false);
  const after = siblingWithText(element, stats, true);
  return before !== null && after !== null && isTextBlock(before, stats) && isTextBlock(after, stats);
}

/** What a site's own links are called: about it, working there, its legal pages, its help. */
const SITE_LINK =
  /^(?:about(?: us)?|careers?|jobs|press|newsroom|privacy(?: policy| notice)?|terms(?: of (?:use|service))?|cookies?(?: policy| settings| preferences)?|help(?: cent(?:er|re))?|contact(?: us)?|status|blog|sitemap|accessibility|legal|imprint|impressum|advertise|investors?|affiliates?|rules|copyright|security|support|faqs?|partners)$/i;

/** A bar of the site's links: this many links at least, this share of its text in links, this long at most. */
const SITE_BAR_LINKS = 4;
const SITE_BAR_LINK_SHARE = 0.8;
const MAX_SITE_BAR = 300;
/** More than this share of a bar's links going elsewhere makes it a box of cards, not the site's bar. */
const SITE_BAR_OTHER_LINKS = 0.4;

/**
 * A block of links that are mostly the site's own pages ("Help · Status · About · Careers · Press
 * · Privacy · Terms"): a site footer, however it is marked.
 */
function isSiteLinkBar(element: Element, own: ElementStats): boolean {
  // Four links hold four elements at least: a link, a list item, a short run is looked at no further.
  if (own.elements < SITE_BAR_LINKS || own.linkText < own.text * SITE_BAR_LINK_SHARE || own.text > MAX_SITE_BAR) return false;
  const links = element.getElementsByTagName('a');
  if (links.length < SITE_BAR_LINKS) return false;
  // Stops at the first link too many that is not the site's own (most link-dense boxes are cards).
  const others = links.length * SITE_BAR_OTHER_LINKS;
  let other = 0;
  for (let index = 0; index < links.length; index++) {
    if (!SITE_LINK.test((links[index]?.textContent ?? '').trim()) && ++other > others) return false;
  }
  return true;
}

/** A menu tree links to this many pages at least, ... */
const MENU_TREE_LINKS = 20;
/** ... is this share links by its text, ... */
const MENU_TREE_LINK_SHARE = 0.9;
/** ... and this share of its links go to other pages (not `#` anchors, as a table of contents' do). */
const MENU_TREE_PAGE_SHARE = 0.8;

/**
 * A tree of links to other pages, lists in lists (a mega menu, a "choose a service" dropdown set
 * in the page's hero): navigation, wherever it stands. A table of contents is a tree too, but of
 * links into the page itself.
 */
function isMenuTree(element: Element, own: ElementStats): boolean {
  if ((element.localName !== 'ul' && element.localName !== 'ol') || own.linkText < own.text * MENU_TREE_LINK_SHARE || own.elements < MENU_TREE_LINKS * 2) return false;
  if (element.querySelector(':scope > li > ul, :scope > li > ol') === null) return false;
  const links = Array.from(element.getElementsByTagName('a'));
  const pages = links.filter((link) => !(link.getAttribute('href') ?? '').startsWith('#')).length;
  return pages >= MENU_TREE_LINKS && pages >= links.length * MENU_TREE_PAGE_SHARE;
}

/** Chrome by tag or role: reliable markup, pruned at any size unless it wraps the content. */
export function isMarkedChrome(element: Element, options: PruneOptions): boolean {
  if (!isChromeElement(element)) return false;
  const name = element.localName;
  if (name === 'header' || name === 'footer') return options.includesChrome || options.articleBody;
  // The site's banner and footer landmarks sit outside the main area; a box inside it given one of
  // those roles is a promotional "banner" of the content.
  const role = element.getAttribute('role');
  if (role === 'banner' || role === 'contentinfo') return options.includesChrome;
  return true;
}

/** Modal dialogs: shown over the page on demand, never its content. */
export function isOverlay(element: Element): boolean {
  const role = element.getAttribute('role');
  if (element.localName === 'dialog' || role === 'dialog' || role === 'alertdialog') return true;
  return element.getAttribute('aria-modal') === 'true';
}

/** A card's or section's header or footer is mostly not links: under this share, its heading's link aside. */
const COMPONENT_PART_LINKS = 0.3;

/**
 * The header or footer of a card or section (a title, a byline), not the page's link bars. A
 * heading that is a link (to the section's own page) is a title, not a link bar.
 */
export function isComponentPart(element: Element, own: ElementStats, stats: StatsMap): boolean {
  if (!hasComponentPartName(element)) return false;
  if (linkDensity(own) < COMPONENT_PART_LINKS) return true;
  // Links in headings are their words (a signature's types in rustdoc's "code-header"), the part itself a heading too.
  const headings = isHeading(element) ? [element] : Array.from(element.querySelectorAll(HEADING_SELECTOR));
  let headingLinks = 0;
  for (const heading of headings) headingLinks += stats.get(heading)?.linkText ?? 0;
  return own.linkText - headingLinks < own.text * COMPONENT_PART_LINKS;
}

/** A paragraph this long is prose: a site's header (a logo, menus, a promise of free shipping) has none. */
const HEADER_PROSE = 100;
/** The content's head has few links: under this link density. */
const CONTENT_HEADER_LINKS = 0.3;

/**
 * The content's own head, even when named as chrome: the page's h1 with prose under it (a
 * product's buy box named "sidebar"), or a header of the content or a section of it
 * ("layout__header" with a docs page's title and lead, "PageSection_header", "c-masthead"): a
 * heading and a paragraph of prose, with few links.
 */
export function isContentHeader(element: Element, own: ElementStats): boolean {
  if (own.maxProse < HEADER_PROSE || linkDensity(own) >= CONTENT_HEADER_LINKS) return false;
  return element.querySelector('h1') !== null || (isNamedHeaderOnly(element) && element.querySelector('h2, h3, h4, h5, h6') !== null);
}

/** A prose box's paragraph is this long at least, ... */
const PROSE_BOX_PARAGRAPH = 200;
/** ... and at least this share of the box's text. */
const PROSE_BOX_SHARE = 0.8;

/** A box that is one paragraph of prose without links (a course's lead in `lf-pdp-header-text`): no chrome is. */
function isProseBox(own: ElementStats): boolean {
  return own.maxProse >= PROSE_BOX_PARAGRAPH && own.maxProse >= own.text * PROSE_BOX_SHARE && own.linkText === 0;
}

/** Shorter than this, a box is a bar or a menu, not a section of the text. */
const CONTENT_PART_BOX = 200;

/** A box named as an overlay that holds the headline and paragraphs of text is the page shown in one (an `article-modal`). */
function showsThePage(element: Element, stats: StatsMap): boolean {
  return holdsH1OutsideLinks(element) && holdsParagraphsInRow(element, stats);
}

/** Chrome or boilerplate by class or id: names are noisier than markup, so prose protects. */
export function isNamedBoilerplate(element: Element, own: ElementStats, stats: StatsMap, options: PruneOptions): boolean {
  // A product's details in a drawer ("product-details-modal") are the product's, opened by a click.
  if (hasOverlayName(element)) return !(options.productPage && hasProductDetailName(element)) && !showsThePage(element, stats);
  // "cPostShareMenu", "post-share": a short part of the content named as boilerplate, chrome word or
  // not. Against a content word a name is weak evidence: only a box of a few words (a menu, a bar),
  // and only inside the chosen content, where it cannot sway which part of the page that is.
  if (!options.includesChrome && own.text < CONTENT_PART_BOX && hasContentPartBoilerplateName(element)) return true;
  if (hasChromeName(element) && !isComponentPart(element, own, stats)) {
    if (isContentHeader(element, own) || isProseBox(own)) return false;
    return options.includesChrome || !hasContentName(element);
  }
  return hasBoilerplateName(element) && !hasContentName(element);
}

/** Shorter than this, an element named as a control is one. */
const MAX_CONTROL = 40;

/** A short control dressed as a link or label: "View details", "Compare", "Add to cart". */
function isControl(element: Element, own: ElementStats): boolean {
  return own.text < MAX_CONTROL && hasControlName(element);
}

/** Quotes, code and tables are the text's own, whatever their class ("blockquote-tag-tip" is a callout). */
const TEXT_BLOCKS = new Set(['blockquote', 'pre', 'table']);
/** An article body keeps its link lists when links are over 40% of its text: its text outside links is under this share. */
const LINK_BODY_OTHER_TEXT = 0.6;
/** A heading this share links by its text is one link: a teaser's headline. */
const TEASER_HEADING_LINKS = 0.9;

/** Boilerplate whatever prose it holds, when it is a small part of the area. */
export function isPlainBoilerplate(element: Element, own: ElementStats, stats: StatsMap, options: PruneOptions, area: AreaSize): boolean {
  if (hasBoilerplateRole(element) || element.localName === 'form' || isControl(element, own) || isSiteLinkBar(element, own) || isMenuTree(element, own)) return true;
  if (!options.keepComments && hasCommentName(element)) return true;
  if (options.productPage && (hasProductExtraName(element) || isItemList(element, stats))) return true;
  if (options.articleBody) {
    if (element.localName === 'figcaption' || isDateline(element, own) || isReadingTime(element, own)) return true;
    if (options.dropHeadline && element.localName === 'h1') return true;
    if (hasArticleMetaName(element) && !hasContentName(element) && !TEXT_BLOCKS.has(element.localName)) return true;
    // Link lists go, unless the body is itself largely links (over 40% of its text): a resource
    // page, a wiki's reading list, is made of them. A product page's links are other products.
    // On a docs page one between blocks of the text points to more of the docs ("Redis string
    // command reference" under the section on strings).
    const linkBody = !options.productPage && area.nonLink < area.text * LINK_BODY_OTHER_TEXT;
    if (isLinkList(element, own) && !linkBody && !(options.docsPage && isSetInText(element, stats))) return true;
    // A heading that is all link heads a teaser of another page.
    if (options.dropTeasers && isHeading(element) && own.linkText >= own.text * TEASER_HEADING_LINKS) return true;
  }
  return false;
}

/**
 * Readers' comments under an article, however long they run (they often outgrow the article).
 * A container that holds the headline is the page itself, whatever its name.
 */
export function isCommentSection(element: Element, options: PruneOptions): boolean {
  if (options.keepComments || !hasCommentName(element)) return false;
  if (element.localName === 'article' || element.localName === 'main') return false;
  return element.querySelector('h1') === null;
}

const COOKIES = /\bcookies?\b/i;
/** The site speaking of itself: "we use", "our partners", "by using this site". */
const SITE_VOICE = /\b(?:we|our|us|this (?:web)?site|by (?:using|continuing|clicking|browsing))\b/i;
const CONSENT_WORDS = /\b(?:accept|agree|consent|allow|withdraw|opt[- ]?out|preferences|settings|personali[sz]ed)\b/i;
/** "Sign in to add this item to your wishlist", "You're not signed in!" */
const SIGN_IN_PROMPT = /^(?:please )?(?:sign|log) ?in (?:to|for)\b|^you(?:'re|’re| are) not (?:signed|logged) in\b/i;
/** The box, or a block in it ("Open in Desktop App" / "You're not signed in!"), opens with a sign-in prompt. */
function holdsSignInPrompt(box: Element, text: string): boolean {
  if (SIGN_IN_PROMPT.test(text)) return true;
  return Array.from(box.querySelectorAll('*')).some((part) => SIGN_IN_PROMPT.test((part.textContent ?? '').trim()));
}

/** Longer than this, a container is a section of a page (a privacy policy), not a notice. */
const MAX_NOTICE = 600;
/** Shorter than this, a box says too little to be read as a notice. */
const MIN_NOTICE = 20;
/** A notice is at most this share of the area's text (a page about cookies is not one). */
const MAX_NOTICE_SHARE = 0.5;
/** A sign-in prompt's box is at most this long ("Sign in to add this item to your wishlist" and its buttons). */
const MAX_SIGN_IN_BOX = 150;
/** Notices are boxes; a paragraph or a list item is text (an article about cookies, a how-to step). */
const NOTICE_TAGS = new Set(['div', 'section', 'aside', 'dialog', 'form', 'footer', 'header']);

/**
 * A cookie consent notice ("This site uses cookies from Google...", "By using Medium, you agree
 * to our Privacy Policy, including cookie policy") or a sign-in prompt, however it is named: the
 * outermost short box whose words say so.
 */
export function isSiteNotice(element: Element, own: ElementStats, stats: StatsMap, area: AreaSize): boolean {
  if (own.text < MIN_NOTICE || own.text > MAX_NOTICE || own.text > area.text * MAX_NOTICE_SHARE || !NOTICE_TAGS.has(element.localName)) return false;
  const parent = element.parentElement;
  if (parent && (stats.get(parent)?.text ?? 0) <= MAX_NOTICE && NOTICE_TAGS.has(parent.localName)) return false;
  const text = (element.textContent ?? '').trim();
  if (own.text <= MAX_SIGN_IN_BOX && holdsSignInPrompt(element, text)) return true;
  return COOKIES.test(text) && SITE_VOICE.test(text) && CONSENT_WORDS.test(text);
}

/** What a publisher says of the links it is paid for: "we may earn a commission", "this post contains affiliate links". */
const AFFILIATE_WORDS = /\b(?:earns? (?:us )?(?:an? )?(?:small )?(?:affiliate )?commissions?|contains? affiliate links|supported by (?:affiliate )?commissions|affiliate (?:partnerships?|commissions?))\b/i;
/** Longer than this, a block is a paragraph about affiliate links (an article on them), not the notice. */
const MAX_DISCLOSURE = 300;

/**
 * The affiliate disclosure a publisher sets above or below its text ("Disclosure: ZDNet may earn a
 * commission from some of the products featured on this page"): the site speaking of itself, in a
 * short block.
 */
export function isAffiliateDisclosure(element: Element, own: ElementStats): boolean {
  if (own.text > MAX_DISCLOSURE || isHeading(element)) return false;
  const text = element.textContent ?? '';
  return AFFILIATE_WORDS.test(text) && (SITE_VOICE.test(text) || /\b(?:this (?:post|page|article)|disclosure)\b/i.test(text));
}

/** The size of the area a pass prunes in: all its text, and its text outside links. */
export interface AreaSize {
  text: number;
  nonLink: number;
}

/** The words that mark an ad wherever it stands: the disclosure a publisher or a shop must show. */
const AD_LABEL = /^(?:sponsored|advertisement|ad|skip advertisement)$/i;
/** Longer than this, an element is more than an ad's label. */
const MAX_AD_LABEL = 20;

/** An element whose whole text is an ad's disclosure ("Sponsored", "Advertisement"): never a sentence of the text. */
export function isAdLabel(element: Element, own: ElementStats): boolean {
  return own.text <= MAX_AD_LABEL && AD_LABEL.test((element.textContent ?? '').trim());
}

/** Customers' reviews on a shop's pages, by name, short of a box holding the product's h1 (a title "--rating"). */
export function isCustomerReviews(element: Element): boolean {
  return hasCustomerReviewName(element) && element.querySelector('h1') === null;
}
