// `allot squeue` and `allot sshare` against a server with no cluster yet: a line that says so,
// not empty output.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLive } from "./test-helpers";

let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(request.url === "/api/v1/clusters" ? 200 : 404, {
      "content-type": "application/json",
    });
    response.end(JSON.stringify(request.url === "/api/v1/clusters" ? { clusters: [] } : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("a server with no clusters", () => {
  it.each(["squeue", "sshare"])("%s says so", async (command) => {
    const result = await runLive([command], { ALLOT_SERVER: url, ALLOT_TOKEN: "allot_p_test" });
    expect(result).toEqual({
      code: 0,
      stdout:
        "This server has no clusters yet: an admin registers one (allot slurm register, docs/slurm.md).\n",
      stderr: "",
    });
  });
});
