// A database outage (issue #29, point 6): a production server whose database goes away answers
// 503 with the error shape and a code that says so on every route, its pages say the database
// cannot be reached, and it serves again when the database is back. The outage is a TCP proxy
// between the server and its own scratch database, closed and opened again by the test.
import net from "node:net";
import { expect, test } from "@playwright/test";
import { encode } from "next-auth/jwt";
import { openScratchDatabase, type ScratchDatabase } from "../lib/testing/scratch-database";
import { startSecondServer, type SecondServer } from "./second-server";

const SECRET = "e2e-outage-nextauth-secret-6b0e4d19a2";

/** Forwards 127.0.0.1:port to `target` until closed; `open` listens again on the same port. */
function createProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  };
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  };
  return { open, close, port: () => port };
}

let database: ScratchDatabase;
let proxy: ReturnType<typeof createProxy>;
let server: SecondServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const serverUrl = process.env.E2E_DATABASE_URL;
  database = await openScratchDatabase(serverUrl ?? "", !serverUrl);
  const target = new URL(database.url);
  proxy = createProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.open();
  target.port = String(proxy.port());
  server = await startSecondServer({
    env: { DATABASE_URL: target.toString(), NEXTAUTH_SECRET: SECRET },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await database?.drop();
});

test("while the database is away every route answers 503 and pages say so", async ({
  page,
  request,
}) => {
  expect((await request.get(`${server.url}/api/v1/health`)).status()).toBe(200);
  await proxy.close();

  const health = await request.get(`${server.url}/api/v1/health`);
  expect(health.status()).toBe(503);
  expect(health.headers()["retry-after"]).toBe("30");
  expect(await health.json()).toMatchObject({ database: "unreachable" });

  const bearer = { Authorization: "Bearer allot_not_a_real_token" };
  const calls = [
    request.get(`${server.url}/api/v1/budgets`, { headers: bearer }),
    request.get(`${server.url}/api/v1/jobs`, { headers: bearer }),
    request.post(`${server.url}/api/v1/clusters/h100/events`, {
      headers: bearer,
      data: { events: [{ id: "e1", kind: "node.down", node: 0 }] },
    }),
  ];
  for (const response of await Promise.all(calls)) {
    expect(response.status()).toBe(503);
    expect(response.headers()["retry-after"]).toBe("30");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("database_unavailable");
    expect(body.error.message).toMatch(/database cannot be reached/);
  }

  // A signed-in person's page: the session is a valid cookie, the database is not there.
  const token = await encode({
    token: { userId: "someone", email: "someone@example.org" },
    secret: SECRET,
  });
  await page
    .context()
    .addCookies([{ name: "next-auth.session-token", value: token, url: server.url }]);
  await page.goto(`${server.url}/clusters`);
  await expect(page.getByRole("heading", { name: "The database cannot be reached" })).toBeVisible();
  await expect(page.getByText("Nothing you did was lost")).toBeVisible();

  // The sign-in page needs no database outside demo mode.
  await page.context().clearCookies();
  await page.goto(`${server.url}/signin`);
  await expect(page.getByRole("heading", { name: "Sign in to Allot" })).toBeVisible();

  await proxy.open();
  expect((await request.get(`${server.url}/api/v1/health`)).status()).toBe(200);
  const after = await request.get(`${server.url}/api/v1/budgets`, { headers: bearer });
  expect(after.status()).toBe(401);
});
