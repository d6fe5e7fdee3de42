import { z } from '@hono/zod-openapi';
import type { Page } from 'playwright-core';
import { InvalidPageOption } from '../browser/types.js';

export const screenshotOptionsSchema = z
  .strictObject({
    fullPage: z.boolean().default(false),
    type: z.enum(['png', 'jpeg', 'webp']).default('png'),
    quality: z.number().int().min(0).max(100).optional().openapi({ description: 'jpeg and webp only' }),
    clip: z
      .strictObject({
        x: z.number().min(0).max(100_000),
        y: z.number().min(0).max(100_000),
        width: z.number().min(1).max(10_000),
        height: z.number().min(1).max(20_000),
      })
      .optional(),
    omitBackground: z.boolean().default(false),
    selector: z.string().min(1).max(1000).optional().openapi({ description: 'Capture one element' }),
  })
  .refine((options) => options.quality === undefined || options.type !== 'png', {
    message: 'quality applies to jpeg and webp only',
    path: ['quality'],
  })
  .default({ fullPage: false, type: 'png', omitBackground: false });

export type ScreenshotOptions = z.infer<typeof screenshotOptionsSchema>;

export interface Screenshot {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
  /** True when a full-page capture was cut at the configured maximum height. */
  truncated: boolean;
}

const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/**
 * Captures the page. Full-page captures are clipped at `maxHeight` pixels so an endless page
 * cannot exhaust memory. webp is encoded by Chromium itself through the DevTools protocol,
 * since Playwright's own screenshot call offers png and jpeg only.
 */
export async function captureScreenshot(page: Page, options: ScreenshotOptions, maxHeight: number): Promise<Screenshot> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const { clip, truncated } = await captureArea(page, options, viewport, maxHeight);
  const width = Math.round(clip?.width ?? viewport.width);
  const height = Math.round(clip?.height ?? viewport.height);
  // With fullPage, Playwright reads `clip` in document coordinates rather than the viewport's.
  const bytes =
    options.type === 'webp'
      ? await webpScreenshot(page, clip ?? { x: 0, y: 0, width, height }, options.quality)
      : await page.screenshot({
          type: options.type,
          quality: options.type === 'jpeg' ? options.quality : undefined,
          clip,
          fullPage: clip !== undefined,
          omitBackground: options.omitBackground,
        });
  return { bytes, contentType: CONTENT_TYPES[options.type], width, height, truncated };
}

type Area = { x: number; y: number; width: number; height: number };

/** The document-coordinate area to capture; undefined for the plain viewport. */
async function captureArea(
  page: Page,
  options: ScreenshotOptions,
  viewport: { width: number; height: number },
  maxHeight: number,
): Promise<{ clip: Area | undefined; truncated: boolean }> {
  if (options.selector) {
    const selector = options.selector;
    const box = await page
      .evaluate((css) => {
        const element = document.querySelector(css);
        if (!element) return null;
        const rect = element.getBoundingClientRect();
        return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, width: rect.width, height: rect.height };
      }, selector)
      .catch((error: Error) => {
        throw new InvalidPageOption(`not a valid CSS selector (${error.message.split('\n')[0]})`, 'screenshotOptions.selector');
      });
    if (!box || box.width < 1 || box.height < 1) {
      throw new InvalidPageOption('no visible element matches the selector', 'screenshotOptions.selector');
    }
    return { clip: { ...box, height: Math.min(box.height, maxHeight) }, truncated: box.height > maxHeight };
  }
  if (options.fullPage) {
    const size = await page.evaluate(() => ({
      width: Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0),
      height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    }));
    const width = Math.min(Math.max(size.width, viewport.width), 10_000);
    return { clip: { x: 0, y: 0, width, height: Math.min(size.height, maxHeight) }, truncated: size.height > maxHeight };
  }
  return { clip: options.clip, truncated: false };
}

async function webpScreenshot(page: Page, clip: Area, quality: number | undefined): Promise<Buffer> {
  const session = await page.context().newCDPSession(page);
  try {
    const { data } = await session.send('Page.captureScreenshot', {
      format: 'webp',
      quality,
      clip: { ...clip, scale: 1 },
      captureBeyondViewport: true,
    });
    return Buffer.from(data, 'base64');
  } finally {
    await session.detach().catch(() => {});
  }
}
