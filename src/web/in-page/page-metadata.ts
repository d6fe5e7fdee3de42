import { normaliseLanguage, readMetadata } from '../../extract/in-page/metadata.js';

/**
 * What a page says about itself, read inside the page (bundled and run in an isolated world):
 * title, description and language as the markdown extractor reads them, plus the canonical URL,
 * site name, author, dates, favicon, and every Open Graph and Twitter card property. Every value
 * is cut at `maxChars` and each map holds at most MAX_PROPERTIES entries: a page may make them
 * any size.
 */
export interface PageMetadataFacts {
  title: string;
  description: string;
  language: string;
  canonicalUrl: string;
  siteName: string;
  author: string;
  publishedTime: string;
  modifiedTime: string;
  favicon: string;
  image: string;
  keywords: string;
  robots: string;
  /** og:* properties without the prefix (`title`, `image`, `site_name`...). */
  openGraph: Record<string, string>;
  /** twitter:* properties without the prefix (`card`, `site`, `creator`...). */
  twitter: Record<string, string>;
}

const MAX_PROPERTIES = 100;

export function readPageMetadata(maxChars: number): PageMetadataFacts {
  const cut = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim().slice(0, maxChars);
  const absolute = (value: string | null | undefined) => {
    if (!value) return '';
    try {
      return cut(new URL(value, document.baseURI).href);
    } catch {
      return '';
    }
  };
  const meta = (...names: string[]) => {
    for (const name of names) {
      const content = document.querySelector(`meta[name="${name}" i], meta[property="${name}" i]`)?.getAttribute('content');
      if (content?.trim()) return cut(content);
    }
    return '';
  };
  const prefixed = (prefix: string) => {
    const found: Record<string, string> = {};
    let count = 0;
    for (const element of document.querySelectorAll(`meta[property^="${prefix}:" i], meta[name^="${prefix}:" i]`)) {
      const key = (element.getAttribute('property') ?? element.getAttribute('name') ?? '').slice(prefix.length + 1).toLowerCase();
      const content = element.getAttribute('content');
      if (!key || !content || key in found) continue;
      found[cut(key).slice(0, 100)] = cut(content);
      if (++count >= MAX_PROPERTIES) break;
    }
    return found;
  };
  const linked = readLinkedData();
  const base = readMetadata();
  const openGraph = prefixed('og');
  const icon =
    document.querySelector('link[rel~="icon" i][href]')?.getAttribute('href') ??
    document.querySelector('link[rel="apple-touch-icon" i][href]')?.getAttribute('href') ??
    '/favicon.ico';
  return {
    title: cut(base.title),
    description: cut(base.description),
    language: base.language || normaliseLanguage(openGraph.locale),
    canonicalUrl: absolute(document.querySelector('link[rel="canonical" i][href]')?.getAttribute('href')),
    siteName: meta('og:site_name', 'application-name') || cut(linked.publisher),
    author: meta('author', 'article:author', 'parsely-author', 'sailthru.author') || cut(linked.author),
    publishedTime: meta('article:published_time', 'datePublished', 'date', 'dc.date', 'dcterms.created') || cut(linked.datePublished),
    modifiedTime: meta('article:modified_time', 'og:updated_time', 'dateModified', 'dcterms.modified') || cut(linked.dateModified),
    favicon: absolute(icon),
    image: absolute(meta('og:image', 'twitter:image')),
    keywords: meta('keywords'),
    robots: meta('robots'),
    openGraph,
    twitter: prefixed('twitter'),
  };
}

/** Author, publisher and dates from the page's JSON-LD (schema.org), the first found of each. */
function readLinkedData(): { author: string; publisher: string; datePublished: string; dateModified: string } {
  const found = { author: '', publisher: '', datePublished: '', dateModified: '' };
  const nameOf = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(nameOf).filter(Boolean).join(', ');
    if (value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') return (value as { name: string }).name;
    return '';
  };
  const pending: unknown[] = [];
  for (const script of [...document.querySelectorAll('script[type="application/ld+json" i]')].slice(0, 20)) {
    try {
      pending.push(JSON.parse(script.textContent ?? ''));
    } catch {
      // A page's broken JSON-LD is its own business.
    }
  }
  for (let visited = 0; pending.length > 0 && visited < 500; visited += 1) {
    const node = pending.shift();
    if (Array.isArray(node)) pending.push(...node);
    if (!node || typeof node !== 'object' || Array.isArray(node)) continue;
    const record = node as Record<string, unknown>;
    if (!found.author && record.author) found.author = nameOf(record.author);
    if (!found.publisher && record.publisher) found.publisher = nameOf(record.publisher);
    if (!found.datePublished && typeof record.datePublished === 'string') found.datePublished = record.datePublished;
    if (!found.dateModified && typeof record.dateModified === 'string') found.dateModified = record.dateModified;
    if (Array.isArray(record['@graph'])) pending.push(...record['@graph']);
  }
  return found;
}
