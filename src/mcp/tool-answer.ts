import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../accounts/caller.js';
import { AppError } from '../errors/app-error.js';
import { statusOf } from '../http/error-status.js';

/**
 * Runs a tool's work; an API error becomes a tool error naming its code (agents read it and act
 * on it), anything else is logged and answered as INTERNAL_ERROR.
 */
export async function answer(caller: Caller, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) {
      const details = error.details ? ` ${JSON.stringify(error.details)}` : '';
      return { isError: true, content: [{ type: 'text', text: `${error.code} (${statusOf(error.code)}): ${error.message}${details}` }] };
    }
    caller.log.error({ err: error }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: `INTERNAL_ERROR (500): something went wrong on our side (request ${caller.requestId})` }] };
  }
}
