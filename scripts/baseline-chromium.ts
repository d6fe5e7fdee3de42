import { loadConfig } from '../src/config.js';

/** The Chromium every bench runs, on both sides: CHROMIUM_PATH when set, else the service's default. */
export const BENCH_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? loadConfig({}).browser.chromiumPath;

/** Flags of the plain playwright-core baseline the benchmarks compare against (root, offline machine). */
export const BASELINE_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
