import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

/**
 * The comparison baseline of the extraction bench, run inside the page like our extractor:
 * @mozilla/readability 0.6.0 on a copy of the document, its `content` converted by turndown
 * 7.2.5 (ATX headings, fenced code), as the data sets' READMEs describe their baseline.
 */
export function extractBaseline(): { markdown: string } {
  const copy = document.cloneNode(true) as Document;
  const article = new Readability(copy).parse();
  if (!article?.content) return { markdown: '' };
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  return { markdown: turndown.turndown(article.content) };
}
