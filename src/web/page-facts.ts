import type { Page } from 'playwright-core';
import { evaluateFunction } from '../extract/page-script.js';

export interface PageFacts {
  title: string;
  description: string;
  language: string;
}

/** A title or description longer than this is cut: they are labels, and a page may make them any size. */
const FACT_MAX_CHARS = 2_000;

/** Title, description and language as the loaded page states them. */
export async function readPageFacts(page: Page): Promise<PageFacts> {
  const [title, ogTitle, description, ogDescription, lang, contentLanguage] = await evaluateFunction(
    page,
    (max: number) =>
      [
        document.title,
        'meta[property="og:title"]',
        'meta[name="description"]',
        'meta[property="og:description"]',
        document.documentElement?.lang ?? '',
        'meta[http-equiv="content-language" i]',
      ]
        .map((item, index) => (index === 0 || index === 4 ? item : (document.querySelector<HTMLMetaElement>(item)?.content ?? '')))
        .map((value) => value.slice(0, max)),
    FACT_MAX_CHARS,
  );
  return {
    title: title!.trim() || ogTitle!.trim(),
    description: description!.trim() || ogDescription!.trim(),
    language: lang!.trim() || contentLanguage!.trim(),
  };
}
