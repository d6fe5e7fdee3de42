import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface BridgeOptions {
  /** Pluck's base URL, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  apiKey: string;
  input?: Readable;
  output?: Writable;
}

/** JSON-RPC's code for an error inside the server: the bridge could not reach Pluck. */
const INTERNAL_ERROR = -32603;

/**
 * `pluck mcp`: a desktop agent starts this process and speaks MCP on its stdin and stdout; every
 * message goes to Pluck's /mcp over HTTP with the API key, and every answer comes back. It knows
 * no tools itself, so the tools are always the server's. Resolves when stdin closes.
 */
export async function runStdioBridge({ baseUrl, apiKey, input = process.stdin, output = process.stdout }: BridgeOptions): Promise<void> {
  const local = new StdioServerTransport(input, output);
  const remote = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });

  const closed = new Promise<void>((resolve) => {
    local.onclose = () => {
      void remote.close().finally(resolve);
    };
  });
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
      // The agent waits for an answer to every request: tell it why none came.
      if (!isJSONRPCRequest(message)) return;
      const reason = error instanceof Error ? error.message : String(error);
      void local.send({ jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: `Pluck at ${baseUrl} did not answer: ${reason}` } });
    });
  };
  remote.onmessage = (message) => {
    void local.send(message);
  };
  remote.onerror = (error) => process.stderr.write(`pluck mcp: ${error.message}\n`);

  await remote.start();
  await local.start();
  input.once('end', () => void local.close());
  await closed;
}
