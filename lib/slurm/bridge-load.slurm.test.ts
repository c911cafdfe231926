// The bridge under 500 pending jobs (issue #30): every job is mirrored into Allot, held in SLURM
// and given its reason in its comment, and the bridge's CPU and memory, idle and loaded, are
// printed for the closing note (measured, not asserted: speed belongs to benchmarks).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openSlurmHarness, run, sbatch, squeue, type SlurmHarness } from "../testing/slurm-harness";

const LANGUAGE = "language.lm-pretrain";
const PENDING_JOBS = 500;
const SAMPLE_MS = 20_000;
const CLOCK_TICKS_PER_SEC = 100;

let h: SlurmHarness;

beforeAll(async () => {
  h = await openSlurmHarness("slurm-load", [LANGUAGE]);
}, 240_000);

afterAll(async () => {
  await h?.close();
}, 60_000);

/**
 * CPU ticks of a process and of the children it waited for (the squeue, sinfo and scontrol it
 * ran), and its resident memory (Linux /proc).
 */
function usage(pid: number): { ticks: number; rssKb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  // utime, stime, cutime, cstime are fields 14-17 of stat, 12-15 after the name.
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return { ticks, rssKb: Number(rss ?? 0) };
}

/** The bridge's CPU share (of one core) and its largest memory over `ms`. */
async function sampleBridge(ms: number): Promise<{ cpuPercent: number; rssMb: number }> {
  const pid = h.bridgePid()!;
  const before = usage(pid);
  let rssKb = before.rssKb;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rssKb = Math.max(rssKb, usage(pid).rssKb);
  }
  const ticks = usage(pid).ticks - before.ticks;
  return {
    cpuPercent: Math.round((ticks / CLOCK_TICKS_PER_SEC / (ms / 1000)) * 1000) / 10,
    rssMb: Math.round(rssKb / 1024),
  };
}

it(`mirrors, holds and explains ${PENDING_JOBS} pending jobs`, async () => {
  const idle = await sampleBridge(SAMPLE_MS);
  const ids: string[] = [];
  for (let i = 0; i < PENDING_JOBS + 4; i += 1) {
    ids.push(await sbatch("-A", LANGUAGE, "--gres=gpu:8", "-J", `load${i}`, "--wrap", "sleep 900"));
  }
  await h.waitFor(
    "every job mirrored",
    async () =>
      (await h.db.job.count({ where: { cluster: { name: "slurm-load" } } })) === ids.length,
    120_000,
  );
  await h.waitFor(
    "every waiting job's reason in its comment",
    async () => {
      const jobs = [...(await squeue()).values()].filter((job) => ids.includes(job.id));
      const pending = jobs.filter((job) => job.state === "PENDING");
      return (
        pending.length === PENDING_JOBS &&
        pending.every((job) => job.comment.startsWith("Allot: #"))
      );
    },
    180_000,
  );
  const loaded = await sampleBridge(SAMPLE_MS);
  const jobs = [...(await squeue()).values()].filter((job) => ids.includes(job.id));
  expect(jobs.filter((job) => job.state === "RUNNING")).toHaveLength(4);
  expect(jobs.filter((job) => job.state === "PENDING").every((job) => job.priority === 0)).toBe(
    true,
  );
  expect(
    await h.db.job.count({ where: { cluster: { name: "slurm-load" }, state: "pending" } }),
  ).toBe(PENDING_JOBS);
  console.log(
    `bridge idle: ${idle.cpuPercent}% of a core, ${idle.rssMb} MB; ` +
      `with ${PENDING_JOBS} pending: ${loaded.cpuPercent}% of a core, ${loaded.rssMb} MB`,
  );
  await run("scancel", ["--user", "root"]);
}, 600_000);
