// The election on the test database, with short times: one of two electors leads, a stolen
// lease stops the leader's work at its next attempt, a clean stop hands over at the next
// attempt, and a leader whose database goes away stops its work at its deadline, before the
// lease can expire for the others.
import net from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type Db } from "../data/db/client";
import { readLease } from "../data/db/lease";
import { getDb } from "../data/db/app-db";
import { captureLogs, type LogCapture } from "../testing/log-capture";
import { getLogger } from "../log/logger";
import { getMetrics } from "../metrics/registry";
import { startLeaderElection } from "./leader";
import type { LeaderHandle } from "./leader-handle";

const TIMES = { renewSec: 0.2, ttlSec: 2, safetySec: 0.5 };
const newName = () => `test-${randomBytes(4).toString("hex")}`;

/** An elector whose work is a flag: on while it leads. */
async function elector(name: string, db: Db = getDb()) {
  const work = { isOn: false, leads: 0, loses: 0, previousHolders: [] as (string | null)[] };
  const handle = await startLeaderElection({
    db,
    log: getLogger(),
    lease: name,
    ...TIMES,
    onLead: async (lease) => {
      work.isOn = true;
      work.leads += 1;
      work.previousHolders.push(lease.previous?.holder ?? null);
    },
    onLose: () => {
      work.isOn = false;
      work.loses += 1;
    },
  });
  return { handle, work };
}

async function waitUntil(what: string, probe: () => boolean, timeoutMs = 5000): Promise<number> {
  const startedMs = performance.now();
  while (!probe()) {
    if (performance.now() - startedMs > timeoutMs) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - startedMs;
}

let logs: LogCapture;
const handles: LeaderHandle[] = [];
beforeAll(async () => {
  logs = captureLogs("info");
  // Connect first: a first statement slower than TTL - safety would count as lost.
  await getDb().$queryRaw`SELECT 1`;
});
afterAll(async () => {
  for (const handle of handles) await handle.stop();
  logs.stop();
  await getDb().$disconnect();
});

describe("startLeaderElection", () => {
  it("of two electors one leads and works, the other does not; the gauge says which", async () => {
    const name = newName();
    const first = await elector(name);
    handles.push(first.handle);
    expect((await getMetrics().leader.get()).values[0]?.value).toBe(1);
    const second = await elector(name);
    handles.push(second.handle);
    expect(first.work).toMatchObject({ isOn: true, leads: 1, previousHolders: [null] });
    expect(second.work).toMatchObject({ isOn: false, leads: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // five renewals
    expect([first.handle.isLeading(), second.handle.isLeading()]).toEqual([true, false]);
    expect(first.work.leads + second.work.leads).toBe(1);
    expect((await readLease(getDb(), name))?.holder).toBe(first.handle.holder);
    const taken = logs.entries().find((line) => line.msg.startsWith("lease taken"));
    expect(taken).toMatchObject({ lease: name, holder: first.handle.holder, previousHolder: null });
    await first.handle.stop();
    await second.handle.stop();
  });

  it("a leader whose lease another holder took stops its work at its next attempt", async () => {
    const name = newName();
    const { handle, work } = await elector(name);
    handles.push(handle);
    expect(work.isOn).toBe(true);
    await getDb().$executeRaw`
      UPDATE leases SET holder = 'intruder', "expiresAt" = now() + interval '1 minute'
       WHERE name = ${name}`;
    const lostMs = await waitUntil("the work to stop", () => !work.isOn);
    expect(lostMs).toBeLessThan(1000);
    expect(work).toMatchObject({ leads: 1, loses: 1 });
    expect(handle.isLeading()).toBe(false);
    expect((await getMetrics().leader.get()).values[0]?.value).toBe(0);
    expect(
      logs.entries().find((line) => line.msg.startsWith("lease lost") && line.lease === name),
    ).toMatchObject({ level: "warn", reason: "taken" });
  });

  it("a leader that stops releases the lease; the other takes it at its next attempt", async () => {
    const name = newName();
    const first = await elector(name);
    const second = await elector(name);
    handles.push(second.handle);
    await first.handle.stop();
    expect(first.work).toMatchObject({ isOn: false, loses: 1 });
    const takeoverMs = await waitUntil("the second to lead", () => second.work.isOn);
    expect(takeoverMs).toBeLessThan(1000); // a renewal period, not the time to live
    expect(second.work.previousHolders).toEqual([first.handle.holder]);
  });
});

/** Forwards a local port to the database until closed (an outage). */
async function openProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a leader that cannot reach the database", () => {
  it("stops its work by its deadline (TTL - safety), before the lease can pass to another", async () => {
    const name = newName();
    const proxy = await openProxy(new URL(inject("databaseUrl")));
    const db = createPrismaClient(proxy.url, 2);
    await db.$queryRaw`SELECT 1`;
    const { handle, work } = await elector(name, db);
    handles.push(handle);
    expect(work.isOn).toBe(true);
    const cutMs = performance.now();
    await proxy.close();
    await waitUntil("the work to stop", () => !work.isOn, 5000);
    const stoppedAfterMs = performance.now() - cutMs;
    // Not at the first failed attempt (within a period of the cut) but at the deadline: the
    // last renewal sent before the cut + 1.5 s.
    expect(stoppedAfterMs).toBeGreaterThan(500);
    expect(stoppedAfterMs).toBeLessThan((TIMES.ttlSec - TIMES.safetySec) * 1000 + 100);
    const lines = logs.entries().filter((line) => line.lease === name);
    const failedAt = lines.findIndex((line) => line.msg === "lease: database unreachable");
    const lostAt = lines.findIndex((line) => line.msg.startsWith("lease lost"));
    expect(failedAt).toBeGreaterThan(-1);
    expect(lostAt).toBeGreaterThan(failedAt);
    // The database still says it is the holder's until expiry: nobody else could have acted yet.
    const lease = await readLease(getDb(), name);
    expect(lease?.holder).toBe(handle.holder);
    expect(
      logs.entries().find((line) => line.msg.startsWith("lease lost") && line.lease === name),
    ).toMatchObject({ reason: "not_renewed" });
    await handle.stop();
    await db.$disconnect().catch(() => undefined);
  });
});
