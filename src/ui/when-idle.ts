/**
 * Runs `work` when the page is idle, or after `timeoutMs` at the latest (browsers without
 * `requestIdleCallback`: shortly). Returns a function that cancels it if it has not run yet.
 */
export function whenIdle(work: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, Math.min(200, timeoutMs));
  return () => clearTimeout(id);
}
