// Next calls register() once when a server process starts: the live scheduling loop runs
// inside it (only under scripts/serve.ts, never during `next build`).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.ALLOT_SERVE !== "1") return;
  const { startReplica } = await import("./lib/leader/start");
  await startReplica();
}
