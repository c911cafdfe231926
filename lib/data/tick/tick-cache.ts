// Answers that change only when a cluster ticks (its queue, the cluster cards), kept in memory
// per server and recomputed when the tick moved or the answer is older than maxAgeMs (events
// between ticks, such as a start acknowledged, show within that time). Readers share one
// computation, so the cost of a page no longer grows with the number of people polling it.
import "server-only";

type Entry<T> = { version: string; computedAtMs: number; value: Promise<T> };

export type TickCache<T> = {
  /** The answer for `key` at `version` (e.g. the cluster's tickedAt), computed at most once. */
  get(key: string, version: string, compute: () => Promise<T>): Promise<T>;
  clear(): void;
};

export function createTickCache<T>(maxAgeMs: number, nowMs = () => Date.now()): TickCache<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    get(key, version, compute) {
      const entry = entries.get(key);
      const now = nowMs();
      if (entry && entry.version === version && now - entry.computedAtMs < maxAgeMs) {
        return entry.value;
      }
      const value = compute();
      const fresh = { version, computedAtMs: now, value };
      entries.set(key, fresh);
      // A failure is not kept: the next reader computes again.
      value.catch(() => {
        if (entries.get(key) === fresh) entries.delete(key);
      });
      return value;
    },
    clear: () => entries.clear(),
  };
}
