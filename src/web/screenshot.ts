/** Old path of the screenshot options (now in output-options.ts), kept while other branches still import from it. */
export { qualityOnlyForLossy, screenshotOptionFields, screenshotOptionsSchema, type ScreenshotOptions } from './output-options.js';
