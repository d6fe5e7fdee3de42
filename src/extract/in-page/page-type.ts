/**
 * What kind of page this is, from structured data first (JSON-LD, microdata, Open Graph), then
 * from the generator and the URL. The kind decides how wide the main content is taken: an
 * article is its body; a product, listing or forum page is its whole main area.
 */

export type PageType = 'article' | 'product' | 'listing' | 'forum' | 'docs' | 'other';

export interface StructuredData {
  /** Every schema.org @type seen in JSON-LD and microdata. */
  types: Map<string, number>;
  /** Description of the single product the page is about, if any. */
  productDescription: string;
}

const ARTICLE_TYPES = ['Article', 'NewsArticle', 'BlogPosting', 'Report', 'ScholarlyArticle', 'LiveBlogPosting', 'OpinionNewsArticle', 'AnalysisNewsArticle', 'ReportageNewsArticle', 'SocialMediaPosting', 'Recipe', 'HowTo'];
const PRODUCT_TYPES = ['Product', 'ProductGroup', 'IndividualProduct', 'ProductModel', 'Vehicle', 'Car', 'SoftwareApplication', 'Course'];
const LISTING_PAGE_TYPES = ['CollectionPage', 'SearchResultsPage'];
const LISTING_TYPES = ['ItemList', 'OfferCatalog'];
const FORUM_TYPES = ['DiscussionForumPosting', 'QAPage'];
const FORUM_GENERATORS = /discourse|xenforo|vbulletin|phpbb|invision|flarum|nodebb|mybb|simple machines|vanilla|lemmy|discuz/i;
const DOCS_GENERATORS = /docusaurus|sphinx|mkdocs|gitbook|vitepress|vuepress|docsy|starlight|nextra|mintlify|readthedocs|rustdoc|javadoc|doxygen|hugo-book|antora|docfx/i;
const FORUM_PATH = /\/(t|threads?|topics?|forums?|community|discussions?|questions)\/|viewtopic|showthread|\/r\/[^/]+\/comments\//i;
/** A site of its own for documentation: docs.github.com, docs.python.org, doc.rust-lang.org. */
const DOCS_HOST = /^docs?\./i;
const DOCS_PATH = /\/(docs?|documentation|reference|manual|api|guides?|handbook|learn|tutorials?)(\/|$)|\.readthedocs\./i;
const PRODUCT_PATH = /\/(products?|p|dp|item|pdp|shop\/[^/]+\/[^/]+)\//i;
const LISTING_PATH = /\/(collections?|category|categories|c|shop|browse|search|tags?|topics)(\/|$)/i;

function addType(types: Map<string, number>, value: unknown): void {
  for (const type of Array.isArray(value) ? value : [value]) {
    if (typeof type === 'string') {
      const name = type.replace(/^https?:\/\/schema\.org\//, '');
      types.set(name, (types.get(name) ?? 0) + 1);
    }
  }
}

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const CHARACTER_REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos|nbsp));/gi;

/**
 * JSON-LD strings are often written through an HTML escaper ("l&#039;année", "&lt;p&gt;"):
 * numeric references and the escaper's named ones are decoded. By hand, not through an HTML
 * sink, which a page enforcing Trusted Types refuses.
 */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(CHARACTER_REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    if (name) return NAMED_REFERENCES[name.toLowerCase()] ?? reference;
    const code = decimal ? Number(decimal) : Number.parseInt(hex ?? '', 16);
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : reference;
  });
}

/**
 * `variant`: the node is a variant of a product group (a size, a colour), whose description is the
 * group's again, often behind the variant's name ("Trail 25 Pack - Golden Sulphur - XXL : Keep your
 * day's gear..."): its type counts, its description is not the product's.
 */
/** Structured data nests a product in a page in a graph: deeper than this, a node is not read. */
const MAX_JSON_LD_DEPTH = 8;

function walkJsonLd(node: unknown, data: StructuredData, depth: number, variant = false): void {
  if (depth > MAX_JSON_LD_DEPTH || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) walkJsonLd(item, data, depth + 1, variant);
    return;
  }
  const record = node as Record<string, unknown>;
  addType(data.types, record['@type']);
  const type = record['@type'];
  const isProduct = (Array.isArray(type) ? type : [type]).some((t) => typeof t === 'string' && PRODUCT_TYPES.includes(t));
  if (isProduct && !variant && typeof record.description === 'string' && record.description.length > data.productDescription.length) {
    data.productDescription = decodeEntities(record.description);
  }
  for (const key of ['@graph', 'mainEntity', 'itemListElement', 'hasPart', 'item']) {
    if (key in record) walkJsonLd(record[key], data, depth + 1, variant);
  }
  if ('hasVariant' in record) walkJsonLd(record.hasVariant, data, depth + 1, true);
}

export function readStructuredData(): StructuredData {
  const data: StructuredData = { types: new Map(), productDescription: '' };
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json" i]'))) {
    try {
      walkJsonLd(JSON.parse(script.textContent ?? ''), data, 0);
    } catch {
      // A broken JSON-LD block says nothing.
    }
  }
  for (const element of Array.from(document.querySelectorAll('[itemtype]'))) {
    addType(data.types, (element.getAttribute('itemtype') ?? '').trim().split(/\s+/)[0]);
  }
  return data;
}

/** A page with this share of its text in lists of cards is a listing. */
const CARD_PAGE = 0.5;

function count(types: Map<string, number>, names: string[]): number {
  return names.reduce((sum, name) => sum + (types.get(name) ?? 0), 0);
}

function metaContent(selector: string): string {
  return document.querySelector(selector)?.getAttribute('content')?.toLowerCase() ?? '';
}

/**
 * `cardShare` tells how much of the page's text sits in lists of cards; asked only when Open Graph
 * alone says "product".
 */
export function detectPageType(data: StructuredData, url: string, cardShare: () => number): PageType {
  const { pathname: path, hostname: host } = (() => {
    try {
      return new URL(url);
    } catch {
      return { pathname: '', hostname: '' };
    }
  })();
  const ogType = metaContent('meta[property="og:type"]');
  const generator = metaContent('meta[name="generator"]');
  const products = count(data.types, PRODUCT_TYPES);
  if (count(data.types, FORUM_TYPES) > 0 || FORUM_GENERATORS.test(generator)) return 'forum';
  if (count(data.types, LISTING_PAGE_TYPES) > 0) return 'listing';
  if (count(data.types, ARTICLE_TYPES) > 0) return 'article';
  // Open Graph's `product.group` is a group of products: a shop's category page.
  if (ogType === 'product.group') return 'listing';
  if (products === 1) return 'product';
  // Shop platforms set `og:type` product on every page of a shop; a page that is mostly a grid of
  // product cards is the shop's category page.
  if (ogType.startsWith('product')) return products === 0 && cardShare() >= CARD_PAGE ? 'listing' : 'product';
  if (count(data.types, LISTING_TYPES) > 0 || products > 2) return 'listing';
  if (count(data.types, ['TechArticle', 'APIReference']) > 0 || DOCS_GENERATORS.test(generator)) return 'docs';
  if (FORUM_PATH.test(path)) return 'forum';
  if (DOCS_PATH.test(path) || DOCS_HOST.test(host)) return 'docs';
  if (PRODUCT_PATH.test(path)) return 'product';
  if (LISTING_PATH.test(path)) return 'listing';
  if (ogType === 'article') return 'article';
  return 'other';
}
