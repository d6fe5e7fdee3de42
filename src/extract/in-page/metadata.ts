import { collapseWhitespace } from './text.js';

/** What the document head says of the page: title, description and BCP 47 language. */

export interface HeadMetadata {
  title: string;
  description: string;
  language: string;
}

function metaContent(selectors: string[]): string {
  for (const selector of selectors) {
    const value = document.querySelector(selector)?.getAttribute('content');
    if (value?.trim()) return collapseWhitespace(value).trim();
  }
  return '';
}

const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

/** "en_US" -> "en-US"; '' for anything that is not a language tag. */
export function normaliseLanguage(raw: string | null | undefined): string {
  const value = (raw ?? '').trim().split(/[,;\s]/)[0]?.replace(/_/g, '-') ?? '';
  if (!LANGUAGE_TAG.test(value)) return '';
  const [primary = '', ...rest] = value.split('-');
  return [primary.toLowerCase(), ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part))].join('-');
}

export function readMetadata(): HeadMetadata {
  const title =
    collapseWhitespace(document.title ?? '').trim() ||
    metaContent(['meta[property="og:title"]', 'meta[name="twitter:title"]']) ||
    collapseWhitespace(document.querySelector('h1')?.textContent ?? '').trim();
  const description = metaContent([
    'meta[name="description"]',
    'meta[property="og:description"]',
    'meta[name="twitter:description"]',
  ]);
  const root = document.documentElement;
  const language =
    normaliseLanguage(root?.getAttribute('lang')) ||
    normaliseLanguage(root?.getAttribute('xml:lang')) ||
    normaliseLanguage(metaContent(['meta[http-equiv="content-language" i]', 'meta[name="language" i]'])) ||
    normaliseLanguage(metaContent(['meta[property="og:locale"]']));
  return { title, description, language };
}
