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
