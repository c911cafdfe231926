// A SLURM test's world: a real SLURM (npm run slurm:up, SLURM_CONF set), the production server
// on a scratch Postgres database of the demo lab's tree, a SLURM cluster registered in it from
// sinfo with \`allot slurm register\`, and the real bridge as its own process. Plus the SLURM
// commands a test reads state with (squeue, sacct) and submits with (sbatch).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { seedDemoLab } from "../../prisma/seed";
import { createPrismaClient } from "../data/db/client";
import { parseSinfo, parseSqueue, SQUEUE_ARGS, type SlurmJob } from "../slurm/slurm-read";
import { createDemoAdminToken } from "./demo-admin-token";
import { freeEphemeralPort } from "./free-port";
import { startProductionServer, type ProductionServer } from "./production-server";
import { openScratchDatabase, type ScratchDatabase } from "./scratch-database";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const POSTGRES =
  process.env.SLURM_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const ALLOT_CLI = path.join(ROOT, "bin/allot.mjs");

/** Fails the test file at once, with what to do, when no local SLURM is up. */
export function requireLocalSlurm(): void {
  if (!process.env.SLURM_CONF) {
    throw new Error(
      "SLURM_CONF is not set: start a local SLURM with npm run slurm:up and source its env file.",
    );
  }
}

/** Runs a command; rejects with its standard error. */
export function run(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      { env: { ...process.env, ...env }, cwd: ROOT, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command} ${args.join(" ")}: ${stderr || error.message}`))
          : resolve(stdout),
    );
  });
}

export async function sbatch(...args: string[]): Promise<string> {
  const out = await run("sbatch", ["--chdir=/tmp", "-o", "/dev/null", ...args]);
  const id = /Submitted batch job (\d+)/.exec(out)?.[1];
  if (!id) throw new Error(`sbatch said: ${out}`);
  return id;
}

export async function squeue(): Promise<Map<string, SlurmJob>> {
  return new Map(parseSqueue(await run("squeue", SQUEUE_ARGS)).map((job) => [job.id, job]));
}

/** Polls `probe` every 250 ms until it gives a value; the error shows `context()` (a log). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  context: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}\n${context().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** sacct's records of a job, one per run (REQUEUED for each requeue). */
export async function sacct(
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

export /** Kills the processes of a job's steps (slurmstepd and what it runs) on this host. */
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

export type SlurmHarness = {
  cluster: string;
  db: ReturnType<typeof createPrismaClient>;
  server: () => ProductionServer;
  adminToken: string;
  /** Everything the bridge printed so far. */
  bridgeLog: () => string;
  /** The bridge's process id (the Node that \`bin/allot.mjs\` started), or null. */
  bridgePid: () => number | null;
  startBridge: () => void;
  stopBridge: (signal?: NodeJS.Signals) => Promise<void>;
  stopServer: () => Promise<void>;
  startServer: () => Promise<void>;
  /** waitFor with the bridge's log in the error. */
  waitFor: <T>(
    what: string,
    probe: () => Promise<T | null | undefined | false>,
    timeoutMs?: number,
  ) => Promise<T>;
  allotJob: (externalId: string) => ReturnType<typeof findAllotJob>;
  /** Runs Allot's command line against the server as the admin; its standard output. */
  allot: (...args: string[]) => Promise<string>;
  /** Allot's placement as SLURM node names, sorted. */
  hostsOf: (placement: unknown) => Promise<string[]>;
  /** Cancels every SLURM job and waits until SLURM and Allot both have nothing open. */
  clearCluster: () => Promise<void>;
  close: () => Promise<void>;
};

function findAllotJob(db: SlurmHarness["db"], cluster: string, externalId: string) {
  return db.job.findFirst({
    where: { externalId, cluster: { name: cluster } },
    include: { runs: { orderBy: { startedAt: "asc" } } },
  });
}

/**
 * Opens the world: `accounts` are added to SLURM (with root as their user), every node is
 * resumed and every job cancelled, then the server starts, the cluster is registered and the
 * bridge runs every second.
 */
export async function openSlurmHarness(cluster: string, accounts: string[]): Promise<SlurmHarness> {
  requireLocalSlurm();
  const database: ScratchDatabase = await openScratchDatabase(POSTGRES, false);
  await seedDemoLab(database.url, { withHistory: false });
  const db = createPrismaClient(database.url, 2);
  const adminToken = await createDemoAdminToken(db, "slurm test");
  const sacctmgr = (...args: string[]) => run("sacctmgr", ["-i", ...args]).catch(() => "");
  for (const account of accounts) await sacctmgr("add", "account", account, "parent=root");
  await sacctmgr("add", "user", "root", `account=${accounts.join(",")}`);
  for (const node of parseSinfo(await run("sinfo", ["--json"]))) {
    await run("scontrol", ["update", `NodeName=${node.name}`, "State=RESUME"]).catch(() => "");
  }
  await run("scancel", ["--user", "root"]).catch(() => "");

  const port = await freeEphemeralPort();
  const serverEnv = {
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: "slurm-test-nextauth-secret-4e1f0a9c27",
    ALLOT_TICK_SEC: "1",
  };
  let server = await startProductionServer(port, { env: serverEnv });
  const registered = await run(
    process.execPath,
    [
      ALLOT_CLI,
      "slurm",
      "register",
      "--cluster",
      cluster,
      "--server",
      server.url,
      "--gpu-type",
      "H100",
      "--token-name",
      "bridge",
    ],
    { ALLOT_TOKEN: adminToken },
  );
  const clusterToken = /executor token \(shown once\): (\S+)/.exec(registered)?.[1];
  if (!clusterToken) throw new Error(`allot slurm register said: ${registered}`);

  let bridge: ChildProcess | null = null;
  let log = registered;
  const harness: SlurmHarness = {
    cluster,
    db,
    server: () => server,
    adminToken,
    bridgeLog: () => log,
    bridgePid: () => bridge?.pid ?? null,
    startBridge: () => {
      bridge = spawn(
        process.execPath,
        [
          ALLOT_CLI,
          "slurm",
          "bridge",
          "--cluster",
          cluster,
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
      bridge.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
      bridge.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    },
    stopBridge: async (signal = "SIGTERM") => {
      const child = bridge;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await exited;
      bridge = null;
    },
    stopServer: () => server.stop(),
    startServer: async () => {
      server = await startProductionServer(port, { env: serverEnv });
    },
    waitFor: (what, probe, timeoutMs) =>
      waitFor(what, probe, timeoutMs, () => `bridge log:\n${log}`),
    allotJob: (externalId) => findAllotJob(db, cluster, externalId),
    allot: (...args) =>
      run(process.execPath, [ALLOT_CLI, ...args, "--server", server.url], {
        ALLOT_TOKEN: adminToken,
      }),
    hostsOf: async (placement) => {
      const nodes = await db.clusterNode.findMany({ where: { cluster: { name: cluster } } });
      const host = new Map(nodes.map((node) => [node.index, node.hostname]));
      return (placement as { node: number }[]).map((slice) => host.get(slice.node)!).sort();
    },
    clearCluster: async () => {
      await run("scancel", ["--user", "root"]).catch(() => "");
      await harness.waitFor("SLURM to have no live job", async () => {
        const jobs = [...(await squeue()).values()];
        return jobs.every((job) => !["PENDING", "RUNNING", "COMPLETING"].includes(job.state));
      });
      await harness.waitFor("Allot to have no open job", async () => {
        const open = await db.job.count({
          where: { cluster: { name: cluster }, state: { in: ["pending", "running"] } },
        });
        return open === 0;
      });
    },
    close: async () => {
      await harness.stopBridge();
      await run("scancel", ["--user", "root"]).catch(() => "");
      await server.stop();
      await db.$disconnect();
      await database.drop();
    },
  };
  harness.startBridge();
  await harness.waitFor("the bridge to start", async () => log.includes("started:"));
  return harness;
}
