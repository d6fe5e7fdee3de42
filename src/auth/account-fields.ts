/** Longest display name an account may store. */
export const MAX_NAME_LENGTH = 100;

/** Longest e-mail address accepted (RFC 5321 caps a path at 256 octets, 254 of them the address). */
export const MAX_EMAIL_LENGTH = 254;
