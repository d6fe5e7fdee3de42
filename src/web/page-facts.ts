import type { Page } from 'playwright-core';

export interface PageFacts {
  title: string;
  description: string;
  language: string;
}

/**
 * Title, description and language as the loaded page states them. The function runs inside the
 * page, so it declares no named inner functions: tsx/esbuild would wrap those in a `__name`
 * helper that exists only in Node.
 */
export async function readPageFacts(page: Page): Promise<PageFacts> {
  const [title, ogTitle, description, ogDescription, lang, contentLanguage] = await page.evaluate(() =>
    [
      document.title,
      'meta[property="og:title"]',
      'meta[name="description"]',
      'meta[property="og:description"]',
      document.documentElement?.lang ?? '',
      'meta[http-equiv="content-language" i]',
    ].map((item, index) =>
      index === 0 || index === 4 ? item : (document.querySelector<HTMLMetaElement>(item)?.content ?? ''),
    ),
  );
  return {
    title: title!.trim() || ogTitle!.trim(),
    description: description!.trim() || ogDescription!.trim(),
    language: lang!.trim() || contentLanguage!.trim(),
  };
}
