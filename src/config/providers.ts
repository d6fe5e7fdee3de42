import { z } from 'zod';
import { httpUrl, nonNegativeInt, positiveInt, stripTrailingSlash } from './env-values.js';

/** The outside services some operations call: web search, YouTube captions, a language model. */
export const providersSection = z
  .object({
    /** Web search providers (src/search); each is on when its variable is set. */
    SEARXNG_URL: httpUrl.optional(),
    BRAVE_API_KEY: z.string().min(1).optional(),
    BRAVE_BASE_URL: httpUrl.default('https://api.search.brave.com'),
    /** Per provider call. */
    SEARCH_TIMEOUT_MS: positiveInt.default(8000),
    SEARCH_CREDIT_COST: nonNegativeInt.default(1),
    /** Origin of YouTube (or a stand-in); caption URLs are only fetched from it (src/captions). */
    YOUTUBE_BASE_URL: httpUrl.default('https://www.youtube.com'),
    /** Per outbound call. */
    YOUTUBE_TIMEOUT_MS: positiveInt.default(10_000),
    CAPTIONS_CREDIT_COST: nonNegativeInt.default(1),
    /**
     * The OpenAI-compatible chat completions server behind AI extraction (src/ai), as
     * configured; unset means OpenAI's own API when an API key is set.
     */
    OPENAI_BASE_URL: httpUrl.optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    AI_MODEL: z.string().min(1).max(200).optional(),
    /** Budget for everything sent to the model; the page's markdown is trimmed to fit. */
    AI_MAX_INPUT_TOKENS: positiveInt.min(500).max(2_000_000).default(8000),
    /** Per model call. */
    AI_TIMEOUT_MS: positiveInt.default(120_000),
  })
  .transform((e) => ({
    search: {
      searxngUrl: e.SEARXNG_URL && stripTrailingSlash(e.SEARXNG_URL),
      braveApiKey: e.BRAVE_API_KEY,
      braveBaseUrl: stripTrailingSlash(e.BRAVE_BASE_URL),
      timeoutMs: e.SEARCH_TIMEOUT_MS,
      creditCost: e.SEARCH_CREDIT_COST,
    },
    captions: {
      youtubeBaseUrl: stripTrailingSlash(e.YOUTUBE_BASE_URL),
      timeoutMs: e.YOUTUBE_TIMEOUT_MS,
      creditCost: e.CAPTIONS_CREDIT_COST,
    },
    ai: {
      baseUrl: e.OPENAI_BASE_URL && stripTrailingSlash(e.OPENAI_BASE_URL),
      apiKey: e.OPENAI_API_KEY,
      model: e.AI_MODEL,
      maxInputTokens: e.AI_MAX_INPUT_TOKENS,
      timeoutMs: e.AI_TIMEOUT_MS,
    },
  }));
