import type { Page } from 'playwright-core';

export interface PageFacts {
  title: string;
  description: string;
  language: string;
}

/** Title, description and language as the loaded page states them. */
export async function readPageFacts(page: Page): Promise<PageFacts> {
  return page.evaluate(() => {
    const meta = (selector: string) => document.querySelector<HTMLMetaElement>(selector)?.content?.trim() ?? '';
    return {
      title: document.title.trim() || meta('meta[property="og:title"]'),
      description: meta('meta[name="description"]') || meta('meta[property="og:description"]'),
      language: document.documentElement.lang.trim() || meta('meta[http-equiv="content-language" i]'),
    };
  });
}
