// The SLURM bridge end to end (issue #30): a real SLURM (scripts/slurm/local.sh, SLURM_CONF set),
// the real bridge as its own process (bin/allot.mjs slurm bridge), the production server on a
// real Postgres database of the demo lab's tree. Jobs are submitted with sbatch as a user would;
// what SLURM runs where is read back with squeue and sacct, and compared with Allot's runs.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { createPrismaClient } from "../data/client";
import { hashToken } from "../data/users";
import { DEMO_USERS } from "../demo/lab-org";
import { startProductionServer, type ProductionServer } from "../testing/production-server";
import { openScratchDatabase, type ScratchDatabase } from "../testing/scratch-database";
import { parseSinfo, parseSqueue, type SlurmJob } from "./slurm-read";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CLUSTER = "slurm-ci";
const LANGUAGE = "language.lm-pretrain";
const VISION = "vision.video-gen";
const POSTGRES =
  process.env.SLURM_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

if (!process.env.SLURM_CONF) {
  throw new Error(
    "SLURM_CONF is not set: start a local SLURM with npm run slurm:up and source its env file.",
  );
}

let database: ScratchDatabase;
let db: ReturnType<typeof createPrismaClient>;
let server: ProductionServer;
const SERVER_PORT = 3600 + Math.floor(Math.random() * 300);
const SERVER_ENV = { NEXTAUTH_SECRET: "slurm-test-secret", ALLOT_TICK_SEC: "1" };
let clusterToken = "";
let adminToken = "";
let bridge: ChildProcess | null = null;
let bridgeLog = "";

function run(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      { env: { ...process.env, ...env }, cwd: ROOT },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command} ${args.join(" ")}: ${stderr || error.message}`))
          : resolve(stdout),
    );
  });
}

async function sbatch(...args: string[]): Promise<string> {
  const out = await run("sbatch", ["--chdir=/tmp", "-o", "/dev/null", ...args]);
  const id = /Submitted batch job (\d+)/.exec(out)?.[1];
  if (!id) throw new Error(`sbatch said: ${out}`);
  return id;
}

async function squeue(): Promise<Map<string, SlurmJob>> {
  return new Map(parseSqueue(await run("squeue", ["--json"])).map((job) => [job.id, job]));
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}\nbridge log:\n${bridgeLog.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** sacct's records of a job, one per run (REQUEUED for each requeue). */
async function sacct(
  id: string,
): Promise<{ state: string; nodes: string; start: string; end: string }[]> {
  const out = await run("sacct", [
    "-X",
    "-P",
    "-n",
    "--duplicates",
    "-o",
    "State,NodeList,Start,End",
    "-j",
    id,
  ]);
  return out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [state, nodes, start, end] = line.split("|");
      return { state: state!.split(" ")[0]!, nodes: nodes!, start: start!, end: end! };
    });
}

async function allotJob(externalId: string) {
  return db.job.findFirst({
    where: { externalId, cluster: { name: CLUSTER } },
    include: { runs: { orderBy: { startedAt: "asc" } } },
  });
}

async function hostsOf(placement: unknown): Promise<string[]> {
  const nodes = await db.clusterNode.findMany({ where: { cluster: { name: CLUSTER } } });
  const host = new Map(nodes.map((node) => [node.index, node.hostname]));
  return (placement as { node: number }[]).map((slice) => host.get(slice.node)!).sort();
}

/** Kills the processes of a job's steps (slurmstepd and what it runs) on this host. */
async function killSteps(jobId: string): Promise<void> {
  const table = await run("ps", ["-eo", "pid=,ppid=,args="]);
  const rows = table.split("\n").map((line) => line.trim().split(/\s+/, 3));
  const steps = rows
    .filter(([, , args]) => args?.startsWith(`slurmstepd: [${jobId}.`))
    .map(([pid]) => pid);
  const children = rows.filter(([, ppid]) => steps.includes(ppid)).map(([pid]) => pid);
  for (const pid of [...children, ...steps]) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function startBridge(): void {
  bridge = spawn(
    process.execPath,
    [
      path.join(ROOT, "bin/allot.mjs"),
      "slurm",
      "bridge",
      "--cluster",
      CLUSTER,
      "--server",
      server.url,
      "--interval",
      "1s",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ALLOT_TOKEN: clusterToken },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  bridge.stdout!.on("data", (chunk: Buffer) => (bridgeLog += chunk.toString()));
  bridge.stderr!.on("data", (chunk: Buffer) => (bridgeLog += chunk.toString()));
}

async function stopBridge(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!bridge || bridge.exitCode !== null) return;
  const exited = new Promise((resolve) => bridge!.once("exit", resolve));
  bridge.kill(signal);
  await exited;
  bridge = null;
}

/** Cancels every SLURM job and waits until SLURM and Allot both have nothing open. */
async function clearCluster(): Promise<void> {
  await run("scancel", ["--user", "root"]).catch(() => "");
  await waitFor("SLURM to have no live job", async () => {
    const jobs = [...(await squeue()).values()];
    return jobs.every((job) => !["PENDING", "RUNNING", "COMPLETING"].includes(job.state));
  });
  await waitFor("Allot to have no open job", async () => {
    const open = await db.job.count({
      where: { cluster: { name: CLUSTER }, state: { in: ["pending", "running"] } },
    });
    return open === 0;
  });
}

beforeAll(async () => {
  database = await openScratchDatabase(POSTGRES, false);
  await seedDemoLab(database.url, { withHistory: false });
  db = createPrismaClient(database.url, 2);
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  adminToken = `allot_p_${randomBytes(24).toString("base64url")}`;
  await db.apiToken.create({
    data: {
      kind: "personal",
      name: "slurm test",
      tokenHash: hashToken(adminToken),
      prefix: adminToken.slice(0, 12),
      userId: admin.id,
    },
  });
  // SLURM's side of the accounts (sync-accounts writes them in a site; the test needs two
  // leaves, one account Allot does not know, and root as their user).
  const sacctmgr = (...args: string[]) => run("sacctmgr", ["-i", ...args]).catch(() => "");
  for (const account of [LANGUAGE, VISION, "orphan"])
    await sacctmgr("add", "account", account, "parent=root");
  await sacctmgr("add", "user", "root", `account=${LANGUAGE},${VISION},orphan`);
  for (const node of parseSinfo(await run("sinfo", ["--json"]))) {
    await run("scontrol", ["update", `NodeName=${node.name}`, "State=RESUME"]).catch(() => "");
  }
  await run("scancel", ["--user", "root"]).catch(() => "");

  server = await startProductionServer(SERVER_PORT, {
    env: { DATABASE_URL: database.url, ...SERVER_ENV },
  });
  const registered = await run(
    process.execPath,
    [
      path.join(ROOT, "bin/allot.mjs"),
      "slurm",
      "register",
      "--cluster",
      CLUSTER,
      "--server",
      server.url,
      "--gpu-type",
      "H100",
      "--token-name",
      "bridge",
    ],
    { ALLOT_TOKEN: adminToken },
  );
  expect(registered).toMatch(/registered slurm-ci: 4 nodes, 32 GPUs/);
  clusterToken = /executor token \(shown once\): (\S+)/.exec(registered)![1]!;
  startBridge();
  await waitFor("the bridge to start", async () => bridgeLog.includes("started:"));
}, 240_000);

afterAll(async () => {
  await stopBridge();
  // The bridge's own log, for reading after a failure.
  writeFileSync(path.join(tmpdir(), "allot-bridge-test.log"), bridgeLog);
  await run("scancel", ["--user", "root"]).catch(() => "");
  await server?.stop();
  await db?.$disconnect();
  await database?.drop();
}, 60_000);

describe("the SLURM bridge", () => {
  it("starts sbatch jobs of two budgets in Allot's order on the nodes Allot chose", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(await sbatch("-A", VISION, "--gres=gpu:8", "-J", `v${i}`, "--wrap", "sleep 6"));
    for (let i = 0; i < 3; i += 1)
      ids.push(await sbatch("-A", LANGUAGE, "--gres=gpu:8", "-J", `l${i}`, "--wrap", "sleep 6"));
    const running = await waitFor("four jobs running", async () => {
      const jobs = await squeue();
      const live = ids.map((id) => jobs.get(id)!).filter((job) => job.state === "RUNNING");
      return live.length === 4 ? live : null;
    });
    for (const job of running) {
      const allot = await waitFor(`Allot to confirm ${job.id}`, async () => {
        const found = await allotJob(job.id);
        return found?.runs.at(-1)?.startAckedAt ? found : null;
      });
      expect(allot.state).toBe("running");
      expect(job.nodes.sort()).toEqual(await hostsOf(allot.runs.at(-1)!.placement));
    }
    // The two that wait are the two Allot did not start, and their comment says why.
    const waiting = ids.filter((id) => !running.some((job) => job.id === id));
    for (const id of waiting) {
      expect((await allotJob(id))?.state).toBe("pending");
      const job = await waitFor(`a reason in ${id}'s comment`, async () => {
        const found = (await squeue()).get(id);
        return found?.comment.startsWith("Allot:") ? found : null;
      });
      expect(job.state).toBe("PENDING");
    }
    const table = await run("squeue", ["-o", "%.10i %.9T %k"]);
    expect(table).toMatch(/PENDING Allot: /);
    // Then every job runs to completion, each exactly once, and Allot agrees.
    for (const id of ids) {
      await waitFor(
        `${id} completed in Allot`,
        async () => (await allotJob(id))?.state === "completed",
      );
      expect((await sacct(id)).map((record) => record.state)).toEqual(["COMPLETED"]);
    }
  }, 120_000);

  it("preempts an unprotected run for a better-ranked budget, requeues it held, resumes it; never a protected one", async () => {
    await clearCluster();
    const protectedId = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--time-min=60",
      "-J",
      "vp",
      "--wrap",
      "sleep 40",
    );
    const free: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      free.push(
        await sbatch(
          "-A",
          VISION,
          "--gres=gpu:8",
          "--comment=allot:free",
          "-J",
          `vf${i}`,
          "--wrap",
          "sleep 12",
        ),
      );
    }
    await waitFor("the vision jobs running", async () => {
      const jobs = await squeue();
      return [protectedId, ...free].every((id) => jobs.get(id)?.state === "RUNNING");
    });
    const language = await sbatch(
      "-A",
      LANGUAGE,
      "--gres=gpu:8",
      "--time-min=10",
      "-J",
      "lp",
      "--wrap",
      "sleep 4",
    );
    await waitFor(
      "the language job running",
      async () => (await squeue()).get(language)?.state === "RUNNING",
    );
    const preempted = await waitFor("one free run requeued", async () => {
      for (const id of free)
        if ((await sacct(id)).some((record) => record.state === "REQUEUED")) return id;
      return null;
    });
    const held = (await squeue()).get(preempted)!;
    expect(held.state === "PENDING" || held.state === "RUNNING").toBe(true);
    expect((await allotJob(preempted))?.runs[0]?.endReason).toBe("preempted");
    // It resumes once the language job is done, and the protected run was never touched.
    await waitFor(
      "the preempted job completed",
      async () => (await allotJob(preempted))?.state === "completed",
      90_000,
    );
    const records = (await sacct(preempted)).map((record) => record.state);
    expect(records).toEqual(["REQUEUED", "COMPLETED"]);
    expect((await sacct(protectedId)).map((record) => record.state)).not.toContain("REQUEUED");
    expect((await allotJob(protectedId))?.runs.map((r) => r.endReason ?? "open")).not.toContain(
      "preempted",
    );
  }, 150_000);

  it("lets a draining node's protected run finish, then counts an automated drain on both sides", async () => {
    await clearCluster();
    const id = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--time-min=60",
      "-J",
      "drain",
      "--wrap",
      "sleep 8",
    );
    const job = await waitFor("the job running", async () => {
      const found = (await squeue()).get(id);
      return found?.state === "RUNNING" ? found : null;
    });
    const node = job.nodes[0]!;
    await run("scontrol", ["update", `NodeName=${node}`, "State=DRAIN", "Reason=maintenance test"]);
    const allotNode = () =>
      db.clusterNode.findFirstOrThrow({ where: { cluster: { name: CLUSTER }, hostname: node } });
    await waitFor(
      "Allot to mark the node draining",
      async () => (await allotNode()).health === "draining",
    );
    expect((await squeue()).get(id)?.state).toBe("RUNNING");
    await waitFor(
      "the protected run completed",
      async () => (await allotJob(id))?.state === "completed",
    );
    await waitFor(
      "an automated drain in Allot",
      async () => (await allotNode()).drainedAt !== null,
    );
    const sinfoNode = parseSinfo(await run("sinfo", ["--json"])).find(
      (entry) => entry.name === node,
    )!;
    expect(sinfoNode.state === "drained" || sinfoNode.flags.includes("DRAIN")).toBe(true);
    await run("scontrol", ["update", `NodeName=${node}`, "State=RESUME"]);
    await waitFor(
      "Allot to mark the node healthy",
      async () => (await allotNode()).health === "healthy",
    );
  }, 120_000);

  it("shows finished and failed jobs as completed and failed in Allot, with their runs", async () => {
    await clearCluster();
    const ok = await sbatch("-A", LANGUAGE, "--gres=gpu:1", "-J", "ok", "--wrap", "sleep 1");
    const bad = await sbatch(
      "-A",
      LANGUAGE,
      "--gres=gpu:1",
      "-J",
      "bad",
      "--wrap",
      "sleep 1; exit 3",
    );
    const done = await waitFor("both ended in Allot", async () => {
      const [a, b] = [await allotJob(ok), await allotJob(bad)];
      return a?.endedAt && b?.endedAt ? { finished: a, failed: b } : null;
    });
    expect(done.finished).toMatchObject({ state: "completed" });
    expect(done.finished.runs.map((r) => r.endReason)).toEqual(["completed"]);
    expect(done.failed).toMatchObject({ state: "failed" });
    expect(done.failed.runs.map((r) => r.endReason)).toEqual(["failed"]);
  }, 60_000);

  it("keeps bad submissions held with the reason in squeue's comment column", async () => {
    await clearCluster();
    const orphan = await sbatch("-A", "orphan", "--gres=gpu:1", "--wrap", "sleep 1");
    const tooBig = await sbatch("-A", LANGUAGE, "--gpus=40", "--wrap", "sleep 1");
    const tooLong = await sbatch(
      "-A",
      LANGUAGE,
      "--gres=gpu:1",
      "--time-min=600",
      "--wrap",
      "sleep 1",
    );
    const reasons: [string, RegExp][] = [
      [orphan, /Allot: not queued: Account "orphan" is not a budget in Allot/],
      [tooBig, /Allot: not queued: It asks for 40 GPUs; slurm-ci has 32/],
      [
        tooLong,
        /Allot: not queued: Its minimum runtime \(--time-min\) of 10 h is above slurm-ci's maximum of 8 h/,
      ],
    ];
    for (const [id, reason] of reasons) {
      const job = await waitFor(`${id}'s reason`, async () => {
        const found = (await squeue()).get(id);
        return found && reason.test(found.comment) ? found : null;
      });
      expect(job).toMatchObject({ state: "PENDING", priority: 0 });
      expect(await allotJob(id)).toBeNull();
    }
    const table = await run("squeue", ["-o", "%.10i %.9T %k"]);
    for (const [id] of reasons)
      expect(table).toMatch(new RegExp(`\\b${id} +PENDING Allot: not queued`));
    await run("scancel", [orphan, tooBig, tooLong]);
  }, 60_000);

  it("drains in SLURM a node Allot drained, and resumes it when Allot says healthy", async () => {
    await clearCluster();
    const target = await db.clusterNode.findFirstOrThrow({
      where: { cluster: { name: CLUSTER }, hostname: "n3" },
    });
    const post = (kind: string) =>
      fetch(`${server.url}/api/v1/clusters/${CLUSTER}/events`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ id: `admin-${kind}-${Date.now()}`, kind, node: target.index }),
      });
    expect((await post("node.draining")).status).toBe(200);
    const slurmNode = async () =>
      parseSinfo(await run("sinfo", ["--json"])).find((node) => node.name === "n3")!;
    const drained = await waitFor("SLURM to drain n3", async () => {
      const node = await slurmNode();
      return node.flags.includes("DRAIN") ? node : null;
    });
    expect(drained.reason).toBe("Allot: drained in Allot");
    expect((await post("node.healthy")).status).toBe(200);
    await waitFor("SLURM to resume n3", async () => !(await slurmNode()).flags.includes("DRAIN"));
    expect((await db.clusterNode.findUniqueOrThrow({ where: { id: target.id } })).health).toBe(
      "healthy",
    );
  }, 60_000);

  it("loses nothing when Allot restarts while jobs are submitted and running", async () => {
    await clearCluster();
    const before: string[] = [];
    for (let i = 0; i < 4; i += 1)
      before.push(await sbatch("-A", LANGUAGE, "--gres=gpu:8", "-J", `a${i}`, "--wrap", "sleep 6"));
    await waitFor("the first jobs running", async () => {
      const jobs = await squeue();
      return before.every((id) => jobs.get(id)?.state === "RUNNING");
    });
    await server.stop();
    const during: string[] = [];
    for (let i = 0; i < 4; i += 1)
      during.push(await sbatch("-A", VISION, "--gres=gpu:8", "-J", `b${i}`, "--wrap", "sleep 2"));
    await waitFor("the bridge to notice", async () => /round failed \(1\)/.test(bridgeLog));
    server = await startProductionServer(SERVER_PORT, {
      env: { DATABASE_URL: database.url, ...SERVER_ENV },
    });
    for (const id of [...before, ...during]) {
      await waitFor(
        `${id} completed in Allot`,
        async () => (await allotJob(id))?.state === "completed",
        120_000,
      );
      expect((await allotJob(id))!.runs.length).toBe(1);
      expect((await sacct(id)).map((record) => record.state)).toEqual(["COMPLETED"]);
    }
  }, 240_000);

  it("loses nothing and starts nothing twice when the bridge is killed and restarted", async () => {
    await clearCluster();
    const ids: string[] = [];
    for (let i = 0; i < 24; i += 1) {
      ids.push(
        await sbatch(
          "-A",
          i % 2 ? LANGUAGE : VISION,
          "--gres=gpu:8",
          "-J",
          `r${i}`,
          "--wrap",
          "sleep 2",
        ),
      );
    }
    const firstRelease = bridgeLog.length;
    await waitFor("a release", async () => bridgeLog.slice(firstRelease).includes("released job"));
    await stopBridge("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 3000));
    startBridge();
    for (const id of ids) {
      await waitFor(
        `${id} completed in Allot`,
        async () => (await allotJob(id))?.state === "completed",
        180_000,
      );
    }
    for (const id of ids) {
      const job = (await allotJob(id))!;
      expect(job.runs.length, `Allot runs of ${id}`).toBe(1);
      expect(
        (await sacct(id)).map((record) => record.state),
        `sacct of ${id}`,
      ).toEqual(["COMPLETED"]);
    }
    logFigures(
      ids,
      await Promise.all(
        ids.map(async (id) => ({ id, job: (await allotJob(id))!, sacct: (await sacct(id))[0]! })),
      ),
    );
  }, 300_000);

  // Last: a node that stopped responding can leave SLURM itself confused for a while.
  it("holds and restarts elsewhere a job SLURM requeued when its node stopped responding", async () => {
    await clearCluster();
    const id = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--requeue",
      "-J",
      "lost",
      "--wrap",
      "sleep 60",
    );
    const job = await waitFor("the job running", async () => {
      const found = (await squeue()).get(id);
      return found?.state === "RUNNING" ? found : null;
    });
    const host = job.nodes[0]!;
    const config = await run("scontrol", ["show", "config"]);
    const pidFile = /SlurmdPidFile\s*=\s*(\S+)/.exec(config)![1]!.replace("%n", host);
    const slurmd = Number(readFileSync(pidFile, "utf8").trim());
    process.kill(slurmd, "SIGSTOP");
    try {
      const allotNode = () =>
        db.clusterNode.findFirstOrThrow({ where: { cluster: { name: CLUSTER }, hostname: host } });
      await waitFor(
        `Allot to mark ${host} down`,
        async () => (await allotNode()).health === "down",
        90_000,
      );
      const restarted = await waitFor(
        "the job running on another node",
        async () => {
          const found = (await squeue()).get(id);
          return found?.state === "RUNNING" && !found.nodes.includes(host) ? found : null;
        },
        90_000,
      );
      const allot = (await allotJob(id))!;
      expect(allot.runs.map((r) => r.endReason)).toEqual(["node_down", null]);
      expect(await hostsOf(allot.runs[1]!.placement)).toEqual(restarted.nodes.sort());
    } finally {
      // The job's first run is still alive on the stopped node: end it before the node speaks
      // again, as a rebooted node would (else SLURM miscounts the GPUs of its new node).
      await killSteps(id);
      process.kill(slurmd, "SIGCONT");
    }
    await run("scancel", [id]);
    await waitFor(
      `${host} healthy in Allot again`,
      async () => {
        const node = await db.clusterNode.findFirstOrThrow({
          where: { cluster: { name: CLUSTER }, hostname: host },
        });
        return node.health === "healthy";
      },
      90_000,
    );
  }, 240_000);
});

/** Medians for the closing note: release -> job.started, and a job's end -> its GPUs reused. */
function logFigures(
  ids: string[],
  rows: {
    id: string;
    job: NonNullable<Awaited<ReturnType<typeof allotJob>>>;
    sacct: { nodes: string; start: string; end: string };
  }[],
): void {
  const released = new Map<string, number>();
  for (const line of bridgeLog.split("\n")) {
    const match = /^(\S+) bridge\[[^\]]+\] released job (\d+)/.exec(line);
    if (match) released.set(match[2]!, Date.parse(match[1]!));
  }
  const toStarted = rows
    .map((row) => (row.job.runs[0]?.startAckedAt?.getTime() ?? NaN) - (released.get(row.id) ?? NaN))
    .filter(Number.isFinite);
  const reuse: number[] = [];
  const byNode = new Map<string, { start: number; end: number }[]>();
  for (const row of rows) {
    const span = { start: Date.parse(`${row.sacct.start}Z`), end: Date.parse(`${row.sacct.end}Z`) };
    const list = byNode.get(row.sacct.nodes) ?? [];
    list.push(span);
    byNode.set(row.sacct.nodes, list);
  }
  for (const spans of byNode.values()) {
    spans.sort((a, b) => a.start - b.start);
    spans.slice(1).forEach((span, i) => reuse.push(span.start - spans[i]!.end));
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  console.log(
    `slurm figures over ${ids.length} jobs: release -> job.started median ${median(toStarted)} ms (n=${toStarted.length}); ` +
      `end -> GPUs reused median ${median(reuse) / 1000} s (n=${reuse.length})`,
  );
}
