/**
 * Where the server put a link it was asked to send: e-mailed, written to its log (SMTP_URL
 * unset), or nowhere because the mail server refused it (reported at sign-up only).
 */
export type MailDelivery = 'smtp' | 'log' | 'failed';

/**
 * What to tell someone about a link: `sent` when it was e-mailed; otherwise where it went
 * instead, so nobody waits for a message that will never arrive.
 */
export function linkNotice(delivery: MailDelivery | undefined | null, sent: string, link: string): string {
  if (delivery === 'failed') return `The mail server did not take our message, so ${link} was not sent. Ask for a new one in a while.`;
  if (delivery !== 'log') return sent;
  return `This server has no e-mail set up, so nothing was sent: ${link} was written to the server's log. Ask the person who runs this server for it.`;
}
