// A production server as an operator runs it, with ALLOT_METRICS_TOKEN and an allow-list that
// does not hold the test's address: GET /metrics refuses without the token (a client's own
// peer-address header does not help: scripts/serve.ts replaces it), serves text that passes
// `promtool check metrics` with it, and the server's log has a JSON line per request and
// never the tokens, the cookie or the secrets, though every request carries them. Requests
// that proxy.ts refuses have a request id, a log line and a count too.
import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { createPrismaClient } from "../lib/data/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/data/db/embedded-postgres";
import { applyMigrations } from "../lib/data/db/migrator";
import { DEMO_USERS } from "../lib/demo/lab-org";
import { createPersonalToken } from "../lib/demo/seed-org";
import { seedDemoLab } from "../prisma/seed";
import { startSecondServer, type SecondServer } from "./second-server";

const METRICS_TOKEN = "e2e-metrics-token-4b1d9e0c7a62f83d51";
const NEXTAUTH_SECRET = "e2e-operations-nextauth-secret-83f2-91ce";
const COOKIE = "next-auth.session-token=e2e-cookie-value-secret-6a5c";
let database: EmbeddedPostgres;
let server: SecondServer;
let personalToken = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  database = await startEmbeddedPostgres("memory://");
  await applyMigrations(database.url);
  await seedDemoLab(database.url, { withHistory: false });
  const db = createPrismaClient(database.url, 2);
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  personalToken = await createPersonalToken(db, user.id, "e2e operations");
  await db.$disconnect();
  server = await startSecondServer({
    env: {
      NEXTAUTH_SECRET,
      DATABASE_URL: database.url,
      ALLOT_METRICS_TOKEN: METRICS_TOKEN,
      ALLOT_METRICS_ALLOW: "10.9.9.9",
      LOG_LEVEL: "info",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await database?.stop();
});

test("GET /metrics refuses without the token, even with a forged peer address", async ({
  request,
}) => {
  const attempts: Record<string, string>[] = [
    {},
    { "x-allot-peer-address": "10.9.9.9" },
    { cookie: COOKIE },
  ];
  for (const headers of attempts) {
    const response = await request.get(`${server.url}/metrics`, { headers });
    expect(response.status()).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "unauthorized",
    );
  }
});

test("GET /metrics with the token passes promtool and shows the seeded clusters", async ({
  request,
}) => {
  const response = await request.get(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/plain; version=0.0.4");
  const text = await response.text();
  const promtool = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  expect({ status: promtool.status, output: promtool.stdout + promtool.stderr }).toEqual({
    status: 0,
    output: "",
  });
  // h100: 128 nodes of 8 GPUs, all idle in a fresh lab.
  expect(text).toContain('allot_cluster_gpus{cluster="h100",state="idle"} 1024');
  expect(text).toContain("allot_metrics_database_up 1");
  expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
});

test("the log has one JSON line per request and no secret", async ({ request }) => {
  const headers = { authorization: `Bearer ${personalToken}`, cookie: COOKIE };
  expect((await request.get(`${server.url}/api/v1/jobs`, { headers })).status()).toBe(200);
  expect(
    (await request.get(`${server.url}/api/v1/jobs`, { headers: { cookie: COOKIE } })).status(),
  ).toBe(401);
  await expect
    .poll(
      () =>
        server
          .output()
          .split("\n")
          .filter((line) => line.includes('"route":"/api/v1/jobs"')).length,
    )
    .toBeGreaterThanOrEqual(2);
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines.filter((line) => line.msg === "request" && line.route === "/api/v1/jobs")).toEqual([
    expect.objectContaining({
      method: "GET",
      status: 200,
      tokenPrefix: personalToken.slice(0, 12),
    }),
    expect.objectContaining({ method: "GET", status: 401 }),
  ]);
  const output = server.output();
  for (const secret of [personalToken, METRICS_TOKEN, NEXTAUTH_SECRET, "e2e-cookie-value-secret"]) {
    expect(output).not.toContain(secret);
  }
});

test("refused requests have an id, a log line and a count; POST /metrics is a 405", async ({
  request,
}) => {
  const unknown = await request.get(`${server.url}/api/v1/healthz`);
  expect(unknown.status()).toBe(404);
  const unknownId = unknown.headers()["x-request-id"];
  expect(unknownId).toMatch(/^[0-9a-f-]{36}$/);
  const post = await request.post(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(post.status()).toBe(405);
  expect(post.headers()["allow"]).toBe("GET, HEAD");
  expect(((await post.json()) as { error: { code: string } }).error.code).toBe(
    "method_not_allowed",
  );
  await expect.poll(() => server.output().includes(`"requestId":"${unknownId}"`)).toBe(true);
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines.find((line) => line.requestId === unknownId)).toMatchObject({
    msg: "request",
    route: "/api/v1/healthz",
    status: 404,
    refusedBy: "proxy",
    code: "not_found",
  });
  expect(lines).toContainEqual(
    expect.objectContaining({ msg: "request", method: "POST", route: "/metrics", status: 405 }),
  );
  const scrape = await request.get(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await scrape.text();
  expect(text).toMatch(
    /^allot_http_request_duration_seconds_count\{route="other",method="GET",status="404"\} [1-9]/m,
  );
  expect(text).toMatch(
    /^allot_http_request_duration_seconds_count\{route="\/metrics",method="POST",status="405"\} 1$/m,
  );
});
