import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeGracefully } from "./close-gracefully";

let server: Server;

/** A server whose one route answers after `delayMs`. */
async function slowServer(delayMs: number): Promise<string> {
  server = createServer((_request, response) => {
    setTimeout(() => response.end("done"), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

afterEach(() => {
  server.closeAllConnections();
});

describe("closeGracefully", () => {
  it("lets a request in flight finish, and takes no new one", async () => {
    const url = await slowServer(300);
    const inFlight = fetch(url).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = closeGracefully(server, 5_000);
    expect(await inFlight).toBe("done");
    expect(await stopping).toBe(true);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("cuts a request that outlasts the grace period", async () => {
    const url = await slowServer(10_000);
    const inFlight = fetch(url).then(
      () => "answered",
      () => "cut",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await closeGracefully(server, 200)).toBe(false);
    expect(await inFlight).toBe("cut");
  });
});
