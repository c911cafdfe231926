// Coalesces tick requests per cluster within one process: while a tick runs, every further
// request waits for one more tick that starts after it. Fifty concurrent event posts cost two
// ticks, not fifty, and each caller still sees a tick that began after its own commit.
import "server-only";
import { getLogger } from "../../log/logger";
import { runTick, type TickOptions, type TickResult } from "./tick";

type Slot = { running: Promise<TickResult> | null; next: Promise<TickResult> | null };

const slots = globalThis as unknown as { allotTickSlots?: Map<string, Slot> };

/** A tick of `cluster` that starts after this call, shared with other waiting callers. */
export function requestTick(cluster: string, options: TickOptions = {}): Promise<TickResult> {
  slots.allotTickSlots ??= new Map();
  const slot = slots.allotTickSlots.get(cluster) ?? { running: null, next: null };
  slots.allotTickSlots.set(cluster, slot);
  if (!slot.running) {
    slot.running = runTick(cluster, options).finally(() => {
      slot.running = null;
    });
    return slot.running;
  }
  slot.next ??= slot.running
    .catch(() => undefined)
    .then(() => {
      slot.next = null;
      return requestTick(cluster, options);
    });
  return slot.next;
}

/**
 * A tick after the caller's own work committed: its failure (the database went away, say) is
 * logged and returned, never thrown, so a caller never answers 500 for work already saved. The
 * timer ticks the cluster again.
 */
export async function tickAfterCommit(
  cluster: string,
  options: TickOptions = {},
): Promise<{ tick: TickResult | null; tickError: string | null }> {
  try {
    return { tick: await requestTick(cluster, options), tickError: null };
  } catch (error) {
    getLogger().error({ cluster, err: error }, "tick after a commit failed");
    return { tick: null, tickError: "The tick that follows failed; the timer runs it again." };
  }
}
