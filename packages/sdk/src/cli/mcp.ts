import { createInterface } from 'node:readline';
import type { Command } from './command.js';
import { EXIT } from './exit-codes.js';

/** JSON-RPC's codes for a line that is not JSON, and for a failure inside the server (Pluck not reached or refusing). */
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

type Message = { id?: string | number | null; method?: string } & Record<string, unknown>;

/**
 * `pluck mcp`: a desktop agent starts this process and speaks MCP on its stdin and stdout, one
 * JSON-RPC message per line. Each message is POSTed to Pluck's stateless /mcp with the API key,
 * and each answer written back as a line. The bridge knows no tools itself, so the tools are
 * always the server's. Messages are relayed as they come (an agent may wait on one call while
 * making another); it ends when stdin closes and every answer is out.
 */
export const mcpCommand: Command = {
  summary: "The stdio bridge to Pluck's MCP server, for desktop agents (Claude Desktop, Cursor...)",
  args: [],
  usage: '',
  details:
    "Reads MCP messages on stdin and writes the answers of Pluck's /mcp on stdout. Configure the agent\nto start `pluck mcp` with PLUCK_API_KEY (and PLUCK_URL) in its environment. See docs/mcp.md.",
  options: {},
  async run({ apiKey, baseUrl, io }) {
    const endpoint = new URL('/mcp', baseUrl);
    const pending = new Set<Promise<void>>();
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const relayed = relay(endpoint, apiKey, line).then((answers) => answers.forEach((answer) => io.out(JSON.stringify(answer))));
      pending.add(relayed);
      void relayed.finally(() => pending.delete(relayed));
    }
    await Promise.all(pending);
    return EXIT.OK;
  },
};

/** One line to /mcp and back: the answers to write (none for a notification). */
async function relay(endpoint: URL, apiKey: string, line: string): Promise<unknown[]> {
  let message: Message | Message[];
  try {
    message = JSON.parse(line) as Message | Message[];
  } catch {
    return [{ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Not a JSON-RPC message: the line is not JSON' } }];
  }
  const requests = (Array.isArray(message) ? message : [message]).filter((each) => each.method !== undefined && each.id !== undefined);
  const failed = (reason: string) => requests.map(({ id }) => ({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: reason } }));
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: line,
    });
  } catch (error) {
    return failed(`Pluck at ${endpoint.origin} did not answer: ${(error as Error).message}`);
  }
  const body = await response.text();
  if (response.status === 202 || body === '') return [];
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return failed(`Pluck answered ${response.status} with something other than JSON`);
  }
  if (response.ok || isJsonRpc(answer)) return Array.isArray(answer) ? answer : [answer];
  // The API's own error (a refused key, a rate limit): its code and message, for the agent to show.
  const { code, message: reason } = (answer as { error?: { code?: string; message?: string } }).error ?? {};
  return failed(`${code ?? response.status}: ${reason ?? 'Pluck refused the request'}`);
}

function isJsonRpc(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'object' && first !== null && (first as { jsonrpc?: unknown }).jsonrpc === '2.0';
}
