// Answers that change only when a cluster ticks (its queue, the cluster cards, a period's review),
// kept in memory per server. A new version (a tick moved) is computed before it is served; an
// answer of the same version older than maxAgeMs (events between ticks, such as a start
// acknowledged) is served while one reader's computation refreshes it. Readers share one
// computation, so the cost of a page does not grow with the number of people polling it.
import "server-only";

type Entry<T> = {
  version: string;
  computedAtMs: number;
  value: Promise<T>;
  isSettled: boolean;
  isRefreshing: boolean;
};

export type TickCache<T> = {
  /** The answer for `key` at `version` (e.g. the cluster's tickedAt), computed at most once. */
  get(key: string, version: string, compute: () => Promise<T>): Promise<T>;
  clear(): void;
};

export type TickCacheOptions = {
  /** How many keys it keeps; the least recently computed goes first. Unbounded by default. */
  maxKeys?: number;
  nowMs?: () => number;
};

export function createTickCache<T>(maxAgeMs: number, options: TickCacheOptions = {}): TickCache<T> {
  const { maxKeys = Infinity, nowMs = () => Date.now() } = options;
  const entries = new Map<string, Entry<T>>();

  const store = (key: string, version: string, value: Promise<T>): Entry<T> => {
    const entry: Entry<T> = {
      version,
      computedAtMs: nowMs(),
      value,
      isSettled: false,
      isRefreshing: false,
    };
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxKeys) entries.delete(entries.keys().next().value!);
    value.then(
      () => (entry.isSettled = true),
      // A failure is not kept: the next reader computes again.
      () => entries.get(key) === entry && entries.delete(key),
    );
    return entry;
  };

  const refresh = (key: string, stale: Entry<T>, compute: () => Promise<T>): void => {
    stale.isRefreshing = true;
    compute().then(
      (value) => {
        if (entries.get(key) === stale) store(key, stale.version, Promise.resolve(value));
      },
      () => (stale.isRefreshing = false),
    );
  };

  return {
    get(key, version, compute) {
      const entry = entries.get(key);
      if (entry?.version !== version) return store(key, version, compute()).value;
      const isOld = nowMs() - entry.computedAtMs >= maxAgeMs;
      if (isOld && entry.isSettled && !entry.isRefreshing) refresh(key, entry, compute);
      return entry.value;
    },
    clear: () => entries.clear(),
  };
}

/** Bumped by this server's ticks: a version read before a local tick is not reused after it. */
let localTicks = 0;

/** Called by the tick once its transaction committed. */
export function noteLocalTick(): void {
  localTicks += 1;
}

export type VersionMemo = {
  /** `read()`'s answer for `key`, shared by the readers of the last `reuseMs`. */
  get(key: string, read: () => Promise<string | null>): Promise<string | null>;
};

/**
 * The version of what the ticks wrote (one query) read once per `reuseMs` and shared, instead of
 * once per request; a tick of this server makes the next reader read it again, so a page reads
 * its own writes. Another replica's tick shows within `reuseMs`.
 */
export function createVersionMemo(reuseMs: number, nowMs = () => Date.now()): VersionMemo {
  const entries = new Map<
    string,
    { readAtMs: number; localTicks: number; value: Promise<string | null> }
  >();
  return {
    get(key, read) {
      const entry = entries.get(key);
      const now = nowMs();
      if (entry && entry.localTicks === localTicks && now - entry.readAtMs < reuseMs) {
        return entry.value;
      }
      const fresh = { readAtMs: now, localTicks, value: read() };
      entries.set(key, fresh);
      fresh.value.catch(() => entries.get(key) === fresh && entries.delete(key));
      return fresh.value;
    },
  };
}
