import { createServer, type IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { createAllotClient } from "./allot-client";

describe("the bridge's Allot client", () => {
  it("says on every call that it is a SLURM bridge, so Allot can refuse a wrong cluster", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      response.setHeader("content-type", "application/json");
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const allot = createAllotClient(`http://127.0.0.1:${port}`, "allot_c_test");
      await allot.get("/api/v1/clusters/h100/plan");
      await allot.post("/api/v1/clusters/h100/events", { events: [] });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seen.map((headers) => headers["x-allot-executor"])).toEqual(["slurm", "slurm"]);
  });
});
