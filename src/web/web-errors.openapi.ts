import { z } from '@hono/zod-openapi';
import { ErrorSchema, errorResponse, json, ValidationErrorSchema } from '../http/openapi.js';

/** Error answers every page operation can give besides the common ones. */
export const webErrors = {
  400: errorResponse('URL_NOT_ALLOWED: the target is refused by the egress policy; INVALID_JSON'),
  402: errorResponse('INSUFFICIENT_CREDITS'),
  502: errorResponse('TARGET_UNREACHABLE; TARGET_CRASHED (the page crashed the browser tab and could not be read without its scripts either)'),
  503: errorResponse('SERVICE_OVERLOADED (with Retry-After) or SERVICE_UNAVAILABLE'),
  422: json(
    z.union([ValidationErrorSchema, ErrorSchema]),
    'VALIDATION_ERROR: the body does not fit (an action list over its bounds included); ACTION_FAILED: an action failed (no element matches, the script threw...), named in the message and in error.action {index, type}',
  ),
  504: errorResponse('TARGET_TIMEOUT; ACTION_TIMEOUT: the actions were still running at their deadline (named in error.action), and the page was given up'),
} as const;
