/** What the readiness check (`GET /health/ready`) asks of the store. */
export interface ReadinessProbe {
  /**
   * Runs a trivial query (`SELECT 1`) and resolves once the store answered; rejects when it
   * cannot.
   */
  ping(): Promise<void>
}
