// The running election's handle, kept on globalThis: Next's bundle starts the election
// (instrumentation.ts) and scripts/serve.ts stops it on SIGTERM, and the two do not share
// module instances. No server-only import, so the serve script can load it.

export type LeaderHandle = {
  /** This process's holder id (hostname:pid:nonce). */
  holder: string;
  isLeading: () => boolean;
  /** Stops trying, stops the leader's work and lets the lease go (a clean shutdown). */
  stop: () => Promise<void>;
};

const state = globalThis as unknown as { allotLeader?: LeaderHandle };

/** Records the process's election (one per process). */
export function setLeaderHandle(handle: LeaderHandle): void {
  state.allotLeader = handle;
}

/** Whether this process holds the leader lease now (false when no election runs). */
export function isThisReplicaLeader(): boolean {
  return state.allotLeader?.isLeading() ?? false;
}

/** Stops this process's election if one runs, releasing the lease; a no-op otherwise. */
export async function stopLeaderElection(): Promise<void> {
  await state.allotLeader?.stop();
}
