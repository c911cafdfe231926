// How the server stops on SIGTERM: no new connections, requests in flight may finish.
import type { Server } from "node:http";

/** How long requests in flight may take to finish once the server is stopping. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops `server` accepting connections and closes the idle ones, waits up to `graceMs` for the
 * requests in flight to be answered, then cuts whatever is left. Resolves with whether every
 * request finished in time.
 */
export async function closeGracefully(
  server: Server,
  graceMs: number = SHUTDOWN_GRACE_MS,
): Promise<boolean> {
  const closed = new Promise<true>((resolve) => server.close(() => resolve(true)));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const isDrained = await Promise.race([closed, late]);
  clearTimeout(timer);
  server.closeAllConnections();
  return isDrained;
}
