// How the server stops on SIGTERM: no new connections, requests in flight may finish.
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** How long requests in flight may take to finish once the server is stopping. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How often a stopping server closes the connections that have gone idle. */
const SWEEP_MS = 100;

/**
 * Stops `server` accepting connections, and closes each kept-alive one as soon as it is idle
 * (a request answered meanwhile says `Connection: close`), for up to `graceMs`; then cuts
 * whatever is left. Resolves with whether every request finished in time.
 */
export async function closeGracefully(
  server: Server,
  graceMs: number = SHUTDOWN_GRACE_MS,
): Promise<boolean> {
  const closing = (_request: IncomingMessage, response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("connection", "close");
  };
  server.prependListener("request", closing);
  const closed = new Promise<true>((resolve) => server.close(() => resolve(true)));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const isDrained = await Promise.race([closed, late]);
  clearInterval(sweep);
  clearTimeout(timer);
  server.closeAllConnections();
  server.off("request", closing);
  return isDrained;
}
