/**
 * Where the process is in its life. On SIGTERM the server marks itself draining: /ready
 * answers 503 so load balancers stop sending new work, while requests in flight finish.
 */
export class Lifecycle {
  private drainingSince: number | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }
}
