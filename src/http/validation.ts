import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { z } from '@hono/zod-openapi';
import { receivedTypeOf, toSpecIssues, VALIDATION_ERROR_NAME, type ValidationIssue, validationMessage } from '../errors/validation-error.js';
import type { AppEnv } from './context.js';
import { errorBody } from './envelope.js';

export function validationErrorBody(requestId: string, issues: ValidationIssue[]) {
  return errorBody(requestId, 'VALIDATION_ERROR', validationMessage(issues), { name: VALIDATION_ERROR_NAME, issues });
}

/** The `defaultHook` for every OpenAPI router: a failed validation becomes the spec's 422 body. */
export function validationHook(
  result: { success: boolean; error?: ZodError; data?: unknown; target?: string },
  c: Context<AppEnv>,
) {
  if (result.success || !result.error) return;
  const issues = toSpecIssues(result.error, result.data);
  return c.json(validationErrorBody(c.get('requestId'), issues), 422);
}

/** Readable messages for Zod 4's defaults, set once at start-up. Schema-level messages win. */
export function installZodMessages() {
  z.config({
    customError: (issue) => {
      if (issue.code === 'invalid_type') {
        if (issue.input === undefined) return 'Required';
        return `Expected ${issue.expected}, received ${receivedTypeOf(issue.input)}`;
      }
      return undefined;
    },
  });
}
