import { type AfterPageOutputEntry, pageTextOf } from './reading.js';

/**
 * Structured data (or an answer) from the page text, by the AI extraction: made once the page is
 * back in the pool, since the model call needs no page and holding one through it would keep it
 * from other requests.
 */
export const jsonOutput: AfterPageOutputEntry<'json'> = {
  name: 'json',
  needs: ['page text'],
  price: { onTop: 'ai-extract' },
  readAfterPage(ask, reading) {
    const { title, markdown } = pageTextOf(reading);
    return reading.ai.extract(ask, { url: reading.finalUrl, title, markdown }, reading.log, reading.signal);
  },
};
