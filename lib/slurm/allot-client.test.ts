import { createServer, type IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { AllotApiError, createAllotClient } from "./allot-client";

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

  it("tells Allot's refusal from a proxy's page for a server that is down", async () => {
    const server = createServer((request, response) => {
      if (request.url === "/refused") {
        response.statusCode = 409;
        response.setHeader("content-type", "application/json");
        response.end(
          JSON.stringify({ error: { code: "conflict", message: "Not a SLURM cluster." } }),
        );
        return;
      }
      response.statusCode = 502;
      response.setHeader("content-type", "text/html");
      response.end("<html><body>502 Bad Gateway</body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const allot = createAllotClient(`http://127.0.0.1:${port}`, "allot_c_test");
    const failureOf = (path: string) =>
      allot.get(path).then(
        () => null,
        (error: unknown) => error as AllotApiError,
      );
    try {
      const refused = await failureOf("/refused");
      expect(refused).toMatchObject({ status: 409, isAllotAnswer: true });
      expect(refused?.message).toBe("Allot answered 409 to GET /refused: Not a SLURM cluster.");
      const proxied = await failureOf("/plan");
      expect(proxied).toMatchObject({ status: 502, isAllotAnswer: false });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
