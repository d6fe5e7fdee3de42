import { errorResponse } from '../http/openapi.js';

/** Error answers every page operation can give besides the common ones. */
export const webErrors = {
  400: errorResponse('URL_NOT_ALLOWED: the target is refused by the egress policy; INVALID_JSON'),
  402: errorResponse('INSUFFICIENT_CREDITS'),
  502: errorResponse('TARGET_UNREACHABLE; TARGET_CRASHED (the page crashed the browser tab and could not be read without its scripts either)'),
  503: errorResponse('SERVICE_OVERLOADED (with Retry-After) or SERVICE_UNAVAILABLE'),
  504: errorResponse('TARGET_TIMEOUT'),
} as const;
