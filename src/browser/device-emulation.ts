import type { CDPSession, Page } from 'playwright-core';
import type { PageDevice } from './types.js';

/** A device the browser does not have itself: only then does a DevTools session of ours need to know it. */
export function isEmulatedDevice(device: PageDevice): boolean {
  return device.deviceScaleFactor !== 1 || device.isMobile;
}

/**
 * Tells a DevTools session of ours the device the page emulates, exactly as Playwright told its
 * own session when it set the context up (crPage.ts `_updateViewport`, Playwright 1.65; the
 * screen is the viewport, as we never set a screen of its own).
 *
 * Chromium keeps device emulation per DevTools session, and Page.captureScreenshot renders with
 * the emulation of the session that asks: from a session that emulates nothing, the image comes
 * at the browser's own scale (1 in headless), and a capture with a clip even leaves the page at
 * that scale afterwards. With the same settings sent again, the renderer sees nothing change,
 * and captures come at the page's scale. The settings are left in place: clearing them would
 * clear the page's emulation, Playwright's included. So this is only for a page that does not
 * outlive its request with these settings (a context of the request's own, a session's page),
 * which is every page with an emulated device (context-supply.ts keeps only plain ones warm).
 */
export async function emulateDeviceOn(session: CDPSession, page: Page, device: PageDevice): Promise<void> {
  const viewport = page.viewportSize();
  if (!viewport) return;
  const landscape = viewport.width > viewport.height;
  const orientation = !device.isMobile
    ? { angle: 0, type: 'landscapePrimary' as const }
    : landscape
      ? { angle: 90, type: 'landscapePrimary' as const }
      : { angle: 0, type: 'portraitPrimary' as const };
  await session.send('Emulation.setDeviceMetricsOverride', {
    mobile: device.isMobile,
    width: viewport.width,
    height: viewport.height,
    screenWidth: viewport.width,
    screenHeight: viewport.height,
    deviceScaleFactor: device.deviceScaleFactor,
    screenOrientation: orientation,
  });
}
