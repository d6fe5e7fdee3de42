import { runStdioBridge } from '../mcp/stdio-bridge.js';

/** `pluck mcp` for desktop agents: PLUCK_URL (default http://127.0.0.1:3000) and PLUCK_API_KEY. */
const apiKey = process.env.PLUCK_API_KEY;
if (!apiKey) {
  process.stderr.write('pluck mcp: set PLUCK_API_KEY to a Pluck API key\n');
  process.exit(2);
}
await runStdioBridge({ baseUrl: process.env.PLUCK_URL ?? 'http://127.0.0.1:3000', apiKey });
