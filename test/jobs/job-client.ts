import type { apiClient } from '../helpers/client.js';

type Api = ReturnType<typeof apiClient>;

export interface JobResult {
  url: string;
  status: 'completed' | 'failed';
  data?: any;
  error?: { code: string; message: string };
  creditsCost: number;
}

/** Polls GET /v1/jobs/{id} until the job is finished (completed, failed or cancelled). */
export async function waitForJob(api: Api, key: string, id: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/jobs/${id}?limit=1`, key);
    if (res.status !== 200) throw new Error(`status failed: ${res.status} ${res.text}`);
    if (['completed', 'failed', 'cancelled'].includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`job still ${res.body.data.status}: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every result of a job, read page by page with the cursor. */
export async function allResults(api: Api, key: string, id: string, pageSize = 100): Promise<JobResult[]> {
  const results: JobResult[] = [];
  let cursor: string | null = '0';
  while (cursor !== null) {
    const res: { status: number; text: string; body: any } = await api.get(`/v1/jobs/${id}?limit=${pageSize}&cursor=${cursor}`, key);
    if (res.status !== 200) throw new Error(`results failed: ${res.status} ${res.text}`);
    results.push(...res.body.data.results);
    cursor = res.body.data.results.length === 0 ? null : res.body.data.next;
  }
  return results;
}
