import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeGracefully } from "./close-gracefully";

let server: Server;
let port = 0;
// A client that keeps its connections open between requests, as a reverse proxy does.
const agent = new Agent({ keepAlive: true });

/** A server whose one route answers after `delayMs`. */
async function slowServer(delayMs: number): Promise<void> {
  server = createServer((_request, response) => {
    setTimeout(() => response.end("done"), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
}

/** GET / through the keep-alive agent: the body, or "cut" when the connection was closed. */
function get(): Promise<string> {
  return new Promise((resolve) => {
    const request = httpRequest({ host: "127.0.0.1", port, path: "/", agent }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve(body));
      response.on("error", () => resolve("cut"));
    });
    request.on("error", () => resolve("cut"));
    request.end();
  });
}

afterEach(() => {
  server.closeAllConnections();
  agent.destroy();
});

describe("closeGracefully", () => {
  it("answers a request in flight, then closes its kept-alive connection and refuses new ones", async () => {
    await slowServer(300);
    expect(await get()).toBe("done"); // the agent now holds an idle connection
    const inFlight = get();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = closeGracefully(server, 5_000);
    expect(await inFlight).toBe("done");
    // Drained: the kept-alive connection was closed once idle, not held until the grace ended.
    expect(await stopping).toBe(true);
    expect(await get()).toBe("cut");
  });

  it("cuts a request that outlasts the grace period", async () => {
    await slowServer(10_000);
    const inFlight = get();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await closeGracefully(server, 200)).toBe(false);
    expect(await inFlight).toBe("cut");
  });
});
