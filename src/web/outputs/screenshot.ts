import type { Page } from 'playwright-core';
import { emulateDeviceOn, isEmulatedDevice } from '../../browser/device-emulation.js';
import { InvalidPageOption, type PageDevice } from '../../browser/types.js';
import { withPageSession } from '../../extract/page-script.js';
import { imageSize } from '../image-size.js';
import type { ScreenshotOptions } from '../output-options.js';
import type { PageOutputEntry, ScreenshotLimits } from './reading.js';

/**
 * The screenshot: the painted page at the device it emulates, stored as a file. A capture mostly
 * waits for Chromium's next frames, so it may be taken beside the metadata read (`table.ts`).
 */
export const screenshotOutput: PageOutputEntry<'screenshot'> = {
  name: 'screenshot',
  needs: ['painted page'],
  price: { onTop: 'screenshot' },
  readsEarly: true,
  refuse: (_options, { askedDevice, loaded }) => deviceMismatch(askedDevice, loaded.device),
  async read(options, { loaded, bounds }) {
    const limits = bounds.screenshot;
    const shot = await captureScreenshot(loaded.page, options, loaded.device, limits);
    const capture = {
      bytes: shot.bytes,
      contentType: shot.contentType,
      extension: options.type === 'jpeg' ? 'jpg' : options.type,
      facts: { width: shot.width, height: shot.height, truncated: shot.truncated },
    };
    if (!shot.truncated) return { capture };
    const message = `The area was larger than this service's screenshot bounds (${limits.maxWidth} wide, ${limits.maxHeight} high, ${limits.maxPixels} pixels in all, in device pixels); the image shows its top left part`;
    return { capture, warnings: [{ code: 'ANSWER_TRUNCATED', message }] };
  },
};

export interface Screenshot {
  bytes: Buffer;
  contentType: string;
  /** The image's size in device pixels, as its encoded bytes declare it. */
  width: number;
  height: number;
  /** True when the area (a full page, an element) was cut to fit the device-pixel bounds. */
  truncated: boolean;
}

const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

type Area = { x: number; y: number; width: number; height: number };

/**
 * What the request alone asks for beyond the bounds (the viewport, a clip): known before any
 * page is loaded, so it is a 422 rather than a cut. Answers the offending field and why.
 */
export function requestedAreaProblem(
  viewport: { width: number; height: number },
  scale: number,
  options: ScreenshotOptions,
  limits: ScreenshotLimits,
): { path: string[]; message: string } | undefined {
  const checks: Array<[string[], { width: number; height: number }]> = [[['viewport'], viewport]];
  if (options.clip && !options.fullPage && !options.selector) checks.push([['screenshotOptions', 'clip'], options.clip]);
  for (const [path, area] of checks) {
    const width = Math.ceil(area.width * scale);
    const height = Math.ceil(area.height * scale);
    if (width > limits.maxWidth || height > limits.maxHeight || width * height > limits.maxPixels) {
      return {
        path,
        message: `${width}x${height} device pixels (at deviceScaleFactor ${scale}) is over this service's screenshot bounds: ${limits.maxWidth} wide, ${limits.maxHeight} high, ${limits.maxPixels} pixels in all`,
      };
    }
  }
  return undefined;
}

/**
 * Captures the page at its device's scale. A full page or an element is cut to the device-pixel
 * bounds so no page can make an image (and Chromium's bitmap behind it) of any size; webp is
 * encoded by Chromium itself through the DevTools protocol, since Playwright's own screenshot
 * call offers png and jpeg only. The size answered is the one the encoded image declares.
 */
export async function captureScreenshot(page: Page, options: ScreenshotOptions, device: PageDevice, limits: ScreenshotLimits): Promise<Screenshot> {
  const wanted = await captureArea(page, options);
  const fitted = wanted && fitArea(wanted, device.deviceScaleFactor, limits);
  const clip = fitted?.area;
  const plainViewport = options.type === 'png' && !clip && !options.omitBackground;
  const bytes =
    options.type === 'webp'
      ? // The viewport without a clip: a clip is in CSS pixels of the document, of which a phone's screen may show more than its own size.
        await chromiumScreenshot(page, device, { format: 'webp', quality: options.quality, clip, captureBeyondViewport: clip !== undefined })
      : plainViewport
        ? await viewportPng(page, device)
        : // With fullPage, Playwright reads `clip` in document coordinates rather than the viewport's.
          await page.screenshot({
          type: options.type,
          quality: options.type === 'jpeg' ? options.quality : undefined,
          clip,
          fullPage: clip !== undefined,
          omitBackground: options.omitBackground,
        });
  const { width, height } = imageSize(bytes);
  return { bytes, contentType: CONTENT_TYPES[options.type], width, height, truncated: fitted?.truncated ?? false };
}

/**
 * A screenshot asked for one device of a page that emulates another (a named session keeps the
 * device of the request that opened it): refused rather than answered at a scale nobody asked for.
 */
export function deviceMismatch(asked: PageDevice, page: PageDevice): InvalidPageOption | undefined {
  if (asked.deviceScaleFactor === page.deviceScaleFactor && asked.isMobile === page.isMobile) return undefined;
  const field = asked.deviceScaleFactor === page.deviceScaleFactor ? 'viewport.isMobile' : 'viewport.deviceScaleFactor';
  return new InvalidPageOption(
    `This session's pages have deviceScaleFactor ${page.deviceScaleFactor} and isMobile ${page.isMobile}, the device of the request that opened it, and a session cannot change its device: ask for the same, or name another session`,
    field,
  );
}

/** The largest part of `area` from its top left corner that fits the bounds at `scale`. */
export function fitArea(area: Area, scale: number, limits: ScreenshotLimits): { area: Area; truncated: boolean } {
  const width = Math.max(1, Math.min(area.width, Math.floor(limits.maxWidth / scale)));
  const byPixels = Math.floor(limits.maxPixels / (Math.ceil(width * scale) * scale));
  const height = Math.max(1, Math.min(area.height, Math.floor(limits.maxHeight / scale), byPixels));
  return { area: { x: area.x, y: area.y, width, height }, truncated: width < area.width || height < area.height };
}

/** The document-coordinate area to capture; undefined for the plain viewport. */
async function captureArea(page: Page, options: ScreenshotOptions): Promise<Area | undefined> {
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
    return box;
  }
  if (options.fullPage) {
    const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
    const size = await page.evaluate(() => ({
      width: Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0),
      height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    }));
    return { x: 0, y: 0, width: Math.max(size.width, viewport.width), height: Math.max(size.height, 1) };
  }
  return options.clip;
}

/**
 * The plain viewport as PNG, encoded by Chromium for speed: measured here on a 1280x800 text
 * page, 76 ms against 146 ms for the same capture at Chromium's default compression and 171-193
 * ms through Playwright (which also injects a caret-hiding style into every frame first); the
 * image is about a third larger. A compositor with no frame to give yet ("Unable to capture
 * screenshot") is asked once more after the next frame, then Playwright's own path is used.
 */
async function viewportPng(page: Page, device: PageDevice): Promise<Buffer> {
  const capture = () => chromiumScreenshot(page, device, { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false });
  try {
    return await capture();
  } catch {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve))).catch(() => undefined);
    return capture().catch(() => page.screenshot({ type: 'png' }));
  }
}

interface ChromiumCapture {
  format: 'png' | 'webp';
  quality?: number;
  /** Unset: the viewport as it is scrolled now. */
  clip?: Area;
  captureBeyondViewport: boolean;
  optimizeForSpeed?: boolean;
}

/**
 * Through the DevTools protocol: webp, which Playwright does not offer, and the fast PNG encoding.
 * The session is ours, not Playwright's, so it is told the page's device first (device-emulation.ts);
 * a clip's `scale: 1` then leaves the page unzoomed, and the image has deviceScaleFactor pixels
 * for each CSS pixel.
 */
async function chromiumScreenshot(page: Page, device: PageDevice, capture: ChromiumCapture): Promise<Buffer> {
  const { data } = await withPageSession(page, async (session) => {
    if (isEmulatedDevice(device)) await emulateDeviceOn(session, page, device);
    return session.send('Page.captureScreenshot', { ...capture, clip: capture.clip && { ...capture.clip, scale: 1 } });
  });
  return Buffer.from(data, 'base64');
}
