import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freeEphemeralPort } from "./free-port";

describe("freeEphemeralPort", () => {
  it("gives a port above fetch's bad ports that a server can listen on", async () => {
    const port = await freeEphemeralPort();
    expect(port).toBeGreaterThan(10080);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
    // fetch reaches it: a closed port is refused, not called a bad port.
    const answer = await fetch(`http://127.0.0.1:${port}/`).catch((error: Error) => error);
    expect(String((answer as Error).cause)).toMatch(/ECONNREFUSED/);
  });
});
