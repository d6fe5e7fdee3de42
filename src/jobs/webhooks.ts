import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { JobsConfig } from '../config.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { AddressNotAllowed } from '../net/errors.js';
import type { JobEvent, WebhookTarget } from './job-options.js';
import type { JobRow } from './job-store.js';
import { jobView } from './job.service.js';
import { pause } from './pause.js';

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (docs/jobs.md). */
export const SIGNATURE_HEADER = 'pluck-signature';
/** Events waiting for one job's receiver; beyond it new events are dropped (and logged), so a dead receiver cannot fill memory. */
const MAX_PENDING_PER_JOB = 10_000;
/** How long a stopping process waits for deliveries in flight. */
const STOP_GRACE_MS = 5000;

/** The signature header's value for `body` sent at `timestamp` (seconds). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Sends a job's events to its webhook: signed, one at a time and in order per job, each retried
 * with a growing pause while the receiver fails (network error, 5xx, 408, 429). Requests go
 * through the guarded fetch, so a receiver on a refused address is never reached, redirects
 * are not followed, and a slow receiver is cut off at JOB_WEBHOOK_TIMEOUT_MS. Events live in
 * memory: those not yet delivered when the process dies are lost (the job's state is not).
 */
export class WebhookSender {
  private readonly chains = new Map<string, { tail: Promise<void>; pending: number }>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly fetch: GuardedFetch,
    private readonly config: Pick<JobsConfig, 'webhookAttempts' | 'webhookTimeoutMs' | 'retryBaseMs'>,
    private readonly log: Logger,
  ) {}

  emit(job: JobRow, event: JobEvent, data: Record<string, unknown>): void {
    if (!job.webhook) return;
    const target = JSON.parse(job.webhook) as WebhookTarget;
    if (!target.events.includes(event)) return;
    const body = JSON.stringify({
      id: randomUUID(),
      event,
      jobId: job.id,
      kind: job.kind,
      timestamp: new Date().toISOString(),
      data: event === 'completed' || event === 'failed' ? { ...jobView(job), ...data, webhook: undefined } : data,
    });
    const chain = this.chains.get(job.id) ?? { tail: Promise.resolve(), pending: 0 };
    if (chain.pending >= MAX_PENDING_PER_JOB) {
      this.log.warn({ jobId: job.id, event }, 'webhook event dropped: too many waiting for this receiver');
      return;
    }
    chain.pending += 1;
    chain.tail = chain.tail
      .then(() => this.deliver(target, body, job.id, event))
      .finally(() => {
        chain.pending -= 1;
        if (chain.pending === 0 && this.chains.get(job.id) === chain) this.chains.delete(job.id);
      });
    this.chains.set(job.id, chain);
  }

  /** Waits a little for deliveries in flight, then gives up on the rest. */
  async stop(): Promise<void> {
    const all = Promise.allSettled([...this.chains.values()].map((chain) => chain.tail));
    const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
    await Promise.race([all, grace]);
    this.stopping.abort();
  }

  private async deliver(target: WebhookTarget, body: string, jobId: string, event: JobEvent): Promise<void> {
    const { webhookAttempts, webhookTimeoutMs, retryBaseMs } = this.config;
    for (let attempt = 1; attempt <= webhookAttempts && !this.stopping.signal.aborted; attempt += 1) {
      const timestamp = Math.floor(Date.now() / 1000);
      let retry = true;
      try {
        const response = await this.fetch(target.url, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/json', 'user-agent': 'Pluck-Webhooks/1.0', [SIGNATURE_HEADER]: signWebhook(target.secret, timestamp, body) },
          body,
          signal: AbortSignal.any([AbortSignal.timeout(webhookTimeoutMs), this.stopping.signal]),
        });
        await response.body?.cancel();
        if (response.status >= 200 && response.status < 300) return;
        retry = response.status >= 500 || response.status === 408 || response.status === 429;
        this.log.info({ jobId, event, status: response.status, attempt }, 'webhook receiver refused the event');
      } catch (error) {
        retry = !(error instanceof AddressNotAllowed);
        this.log.info({ jobId, event, attempt, err: error }, 'webhook delivery failed');
      }
      if (!retry) return;
      if (attempt < webhookAttempts) await pause(retryBaseMs * 2 ** (attempt - 1), this.stopping.signal);
    }
    this.log.warn({ jobId, event }, 'webhook event given up after its attempts');
  }
}
