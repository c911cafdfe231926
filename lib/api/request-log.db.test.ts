// The log lines of real route handlers (lib/log/logger.ts pointed at a stream): one per request
// with its id, caller, route, status and duration, one per executor batch and per tick; the
// stack of an unexpected error in the log and never in the response; and no secret anywhere,
// though every request carries a bearer token and a session cookie.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { POST as postEvents } from "../../app/api/v1/clusters/[name]/events/route";
import { GET as getJobs } from "../../app/api/v1/jobs/route";
import { createPrismaClient } from "../data/db/client";
import { runTick } from "../data/tick/tick";
import { createClusterToken } from "../data/tokens";
import { removeTestCluster } from "../testing/remove-cluster";
import { DEMO_USERS } from "../demo/lab-org";
import { createLogger, setLogDestination } from "../log/logger";
import { createPersonalToken } from "../demo/seed-org";
import { apiRoute } from "./respond";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const CLUSTER = "zz-log";
const COOKIE_SECRET = "eyJzZWNyZXQtY29va2llLXZhbHVl.zz-cookie-secret-91c2";
const NEXTAUTH_SECRET = "zz-nextauth-secret-5d0e77a1";
const lines: string[] = [];
/** Every line of the file's requests; `lines` is cleared by each test. */
const allLines: string[] = [];
let personalToken = "";
let clusterToken = "";
let researcherId = "";

type Line = Record<string, unknown> & { msg: string };

function entries(): Line[] {
  return lines.map((line) => JSON.parse(line) as Line);
}

function headers(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    cookie: `next-auth.session-token=${COOKIE_SECRET}; other=1`,
    "content-type": "application/json",
    ...extra,
  };
}

/** Points the app's logger at `lines` and `allLines`, at `level`. */
function listen(level: string): void {
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const written = chunk.toString().split("\n").filter(Boolean);
        lines.push(...written);
        allLines.push(...written);
        done();
      },
    }),
    level,
  );
}

beforeAll(async () => {
  process.env.NEXTAUTH_SECRET = NEXTAUTH_SECRET;
  listen("info");
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  researcherId = (
    await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } })
  ).id;
  personalToken = await createPersonalToken(db, researcherId, "zz-log");
  await db.cluster.create({
    data: {
      name: CLUSTER,
      gpuType: "test",
      nodes: { create: [0, 1].map((index) => ({ index, gpus: 8, health: "healthy" })) },
    },
  });
  clusterToken = (await createClusterToken(CLUSTER, "zz-log executor", admin.id)).token;
});

afterAll(async () => {
  setLogDestination(process.stdout);
  await removeTestCluster(db, CLUSTER);
  await db.$disconnect();
});

describe("request logs", () => {
  it("logs a personal token's call with its id, user, token prefix, route, status and duration", async () => {
    lines.length = 0;
    const response = await getJobs(
      new Request("http://localhost/api/v1/jobs?x=1", {
        headers: headers(personalToken, { "x-request-id": "zz-req-42" }),
      }),
      undefined,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("zz-req-42");
    const request = entries().find((entry) => entry.msg === "request");
    expect(request).toMatchObject({
      level: "info",
      service: "allot",
      requestId: "zz-req-42",
      method: "GET",
      route: "/api/v1/jobs",
      status: 200,
      userId: researcherId,
      tokenPrefix: personalToken.slice(0, 12),
    });
    expect(typeof request?.durationMs).toBe("number");
    expect(typeof request?.time).toBe("string");
  });

  it("logs an executor's batch by outcome, the tick after it and the request with its cluster", async () => {
    lines.length = 0;
    const event = { id: "zz-log-drain-1", kind: "node.draining", node: 1 };
    const response = await postEvents(
      new Request(`http://localhost/api/v1/clusters/${CLUSTER}/events`, {
        method: "POST",
        headers: headers(clusterToken),
        body: JSON.stringify({ events: [event, event] }),
      }),
      { params: Promise.resolve({ name: CLUSTER }) },
    );
    expect(response.status).toBe(200);
    const logged = entries();
    expect(logged.find((entry) => entry.msg === "executor batch")).toMatchObject({
      cluster: CLUSTER,
      events: 2,
      outcomes: { applied: 1, duplicate: 1, ignored: 0, refused: 0 },
    });
    const tick = logged.find((entry) => entry.msg === "tick");
    expect(tick).toMatchObject({ cluster: CLUSTER, preemptions: 0, drainsCompleted: 1 });
    expect(typeof tick?.durationMs).toBe("number");
    expect(typeof tick?.starts).toBe("number");
    expect(logged.find((entry) => entry.msg === "request")).toMatchObject({
      route: "/api/v1/clusters/:name/events",
      method: "POST",
      status: 200,
      cluster: CLUSTER,
      tokenPrefix: clusterToken.slice(0, 12),
    });
    expect(typeof logged.find((entry) => entry.msg === "request")?.requestId).toBe("string");
  });

  it("logs a pass that changed nothing at debug, not info", async () => {
    lines.length = 0;
    listen("debug");
    try {
      const result = await runTick(CLUSTER);
      expect(result.starts + result.preemptions + result.drainsCompleted).toBe(0);
    } finally {
      listen("info");
    }
    const ticks = entries().filter((entry) => entry.msg === "tick");
    expect(ticks).toEqual([expect.objectContaining({ level: "debug", cluster: CLUSTER })]);
    expect(ticks[0]).not.toHaveProperty("skipped");
  });

  it("logs a refused unknown token by its prefix only", async () => {
    lines.length = 0;
    const unknown = "allot_p_zz-unknown-token-secret-part-0042";
    const response = await getJobs(
      new Request("http://localhost/api/v1/jobs", { headers: headers(unknown) }),
      undefined,
    );
    expect(response.status).toBe(401);
    expect(entries().find((entry) => entry.msg === "request")).toMatchObject({
      status: 401,
      tokenPrefix: "allot_p_zz-u",
    });
    expect(lines.join("\n")).not.toContain("unknown-token-secret");
  });

  it("logs an unexpected error's stack and answers a generic 500", async () => {
    lines.length = 0;
    const failing = apiRoute(async () => {
      throw new Error("zz-kaboom: the disk caught fire");
    });
    const response = await failing(
      new Request("http://localhost/api/v1/health", { headers: headers(personalToken) }),
      undefined,
    );
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({
      error: {
        code: "internal",
        message: "Something went wrong on the server; it has been logged.",
      },
    });
    expect(body).not.toMatch(/kaboom|\bat\b.*\.ts/);
    const error = entries().find((entry) => entry.msg === "unexpected error") as
      { err: { message: string; stack: string }; requestId: string; level: string } | undefined;
    expect(error?.level).toBe("error");
    expect(error?.err.message).toBe("zz-kaboom: the disk caught fire");
    expect(error?.err.stack).toMatch(/request-log\.db\.test\.ts/);
    expect(entries().find((entry) => entry.msg === "request")).toMatchObject({
      status: 500,
      requestId: error?.requestId,
    });
  });

  it("never wrote a token, the cookie or NEXTAUTH_SECRET", () => {
    // Everything the tests above logged, and the worst case: the secrets handed to the logger.
    const text: string[] = [];
    createLogger(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          text.push(chunk.toString());
          done();
        },
      }),
      "info",
    ).info({ headers: headers(personalToken), env: { NEXTAUTH_SECRET } }, "headers");
    expect(allLines.length).toBeGreaterThanOrEqual(7);
    for (const output of [allLines.join("\n"), text.join("")]) {
      for (const secret of [personalToken, clusterToken, COOKIE_SECRET, NEXTAUTH_SECRET]) {
        expect(output).not.toContain(secret);
      }
    }
  });
});
