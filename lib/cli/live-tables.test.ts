import { describe, expect, it } from "vitest";
import { formatBudgets } from "./budgets-command";
import { NOW_SEC, QUEUE, WAITING_JOB } from "./live-fixtures";
import { formatSqueue } from "./squeue-command";
import { formatSshare, withFactors } from "./sshare-command";
import { formatWhy } from "./why-command";

describe("squeue's table", () => {
  it("lists running then pending jobs, START from the estimate or '-'", () => {
    expect(formatSqueue([QUEUE], { isOwn: false, isStartView: false })).toBe(
      [
        "h100: 16 GPUs, 1 running, 2 pending",
        "",
        "CLUSTER  JOBID     NAME      USER        BUDGET         ST  GPUS  RANK  POS        TIME  START      REASON",
        "-------  --------  --------  ----------  -------------  --  ----  ----  ---  ----------  ---------  -----------------------------------------",
        "h100     job-run   pretrain  Ada Okafor  lang/pretrain  R      8     2    -  1 h 30 min  03:50 UTC  node 0; protected 30 min more",
        "h100     job-wait  eval      Riley Chen  lang/eval      PD    16     1    1      10 min  05:50 UTC  Waits for 8 GPUs held by a protected run.",
        "h100     job-free  sweep     Riley Chen  vision/free    PD     4     -    2        30 s  -          Waits for idle GPUs.",
        "",
      ].join("\n"),
    );
  });

  it("--start: pending jobs with START and NOTE; --me: the summary says whose", () => {
    const own = { ...QUEUE, running: [], pending: QUEUE.pending };
    expect(formatSqueue([own], { isOwn: true, isStartView: true })).toBe(
      [
        "h100: 16 GPUs, 2 pending in all; yours: 0 running, 2 pending",
        "",
        "CLUSTER  JOBID     NAME   USER        BUDGET       GPUS  POS  START      NOTE",
        "-------  --------  -----  ----------  -----------  ----  ---  ---------  ----------------------------",
        "h100     job-wait  eval   Riley Chen  lang/eval      16    1  05:50 UTC  -",
        "h100     job-free  sweep  Riley Chen  vision/free     4    2  -          Starts when 4 GPUs are idle.",
        "",
      ].join("\n"),
    );
  });

  it("an unallocated run (minimum runtime 0) says it is preemptible, not protected", () => {
    const free = { ...QUEUE, running: [{ ...QUEUE.running[0]!, isAllocated: false }], pending: [] };
    const line = formatSqueue([free], { isOwn: false, isStartView: false }).split("\n").at(-2);
    expect(line).toMatch(/ node 0; unallocated: on idle GPUs, never protected, uncharged$/);
  });

  it("shows SLURM's job id for a job submitted with sbatch, Allot's for the others", () => {
    const slurm = {
      ...QUEUE,
      running: [{ ...QUEUE.running[0]!, externalId: "812" }],
      pending: [{ ...QUEUE.pending[0]!, externalId: "813" }, QUEUE.pending[1]!],
    };
    const ids = formatSqueue([slurm], { isOwn: false, isStartView: false })
      .split("\n")
      .slice(4, 7)
      .map((line) => line.split(/ +/)[1]);
    expect(ids).toEqual(["812", "813", "job-free"]);
    const startView = formatSqueue([slurm], { isOwn: false, isStartView: true });
    expect(startView.split("\n")[4]).toMatch(/^h100 +813 +eval /);
  });

  it("says how many pending jobs the server left out", () => {
    const long = { ...QUEUE, pendingTotal: 900 };
    expect(formatSqueue([long], { isOwn: false, isStartView: false })).toMatch(
      /^h100: 16 GPUs, 1 running, 900 pending \(2 shown\)\n/,
    );
  });
});

describe("sshare's table", () => {
  it("prints the tree like sshare -l, 'inf' for unused budgets, factors of ranked leaves", () => {
    expect(formatSshare(QUEUE)).toBe(
      [
        "Cluster h100 (16 GPUs), usage over the last 7 d 0 h, at 2026-12-06 05:20 UTC",
        "",
        "BUDGET        WEIGHT  FRACTION  EFF.SHARE  USAGE GPU-h  USAGE/SHARE      LF  RANK  FACTOR",
        "------------  ------  --------  ---------  -----------  -----------  ------  ----  ------",
        "lab                1         -     100.0%         20.0        1.000       -",
        "  lang             3    0.7500      75.0%         20.0        1.333  0.7500",
        "    eval           1    0.3333      25.0%          0.0        0.000     inf     1  1.0000",
        "    pretrain       2    0.6667      50.0%         20.0        2.000  0.6667     2  0.6667",
        "  vision           1    0.2500      25.0%          0.0        0.000     inf     3  0.3333",
        "",
      ].join("\n"),
    );
  });

  it("writes a large LF as a whole number, not in exponent form", () => {
    const tree = QUEUE.tree.map((row) =>
      row.id === "vision" ? { ...row, levelFairShare: 90_270.4 } : row,
    );
    expect(formatSshare({ ...QUEUE, tree })).toContain(
      "  vision           1    0.2500      25.0%          0.0        0.000  90,270     3  0.3333",
    );
  });

  it("gives each ranked leaf (leaves - rank + 1) / leaves, and says when nothing is ranked yet", () => {
    expect(withFactors(QUEUE.tree).map((row) => row.fairShareFactor)).toEqual([
      null,
      null,
      1,
      2 / 3,
      1 / 3,
    ]);
    expect(formatSshare({ ...QUEUE, tree: [] })).toMatch(
      /\n\nNo ranking yet: the cluster has not been scheduled since it started\.\n$/,
    );
  });
});

describe("why", () => {
  it("prints the job, its state with rank 'of N', why it waits and its decisions", () => {
    expect(formatWhy(WAITING_JOB)).toBe(
      [
        'Job job-wait "eval" on h100, by Riley Chen, budget lang/eval',
        "16 GPUs, minimum runtime 1 h 00 min, resumable, priority normal, submitted 05:10 UTC",
        "State: pending, #1 in the queue, budget rank 1 of 3 (0.0% of its share used)",
        "Waits for 8 GPUs held by a protected run.",
        "",
        "Decisions, newest last:",
        "  05:10 UTC  Waits for 8 GPUs held by a protected run.",
        "",
      ].join("\n"),
    );
  });

  it("a pending job without a reason yet (new, or requeued since the last pass) waits for the next pass", () => {
    const requeued = {
      ...WAITING_JOB,
      queuePosition: null,
      waitSentence: null,
    };
    expect(formatWhy(requeued).split("\n").slice(2, 4)).toEqual([
      "State: pending, in the queue, budget rank 1 of 3 (0.0% of its share used)",
      "Waiting for the scheduler's next pass.",
    ]);
  });

  it("a running job says since when, where and how long it is protected", () => {
    const running = {
      ...WAITING_JOB,
      state: "running",
      queuePosition: null,
      waitSentence: null,
      runs: [
        {
          nodes: [0, 1],
          isAllocated: true,
          startSec: NOW_SEC - 60,
          endSec: null,
          protectedUntilSec: NOW_SEC + 3540,
          endReason: null,
        },
      ],
      decisions: [],
    };
    expect(formatWhy(running).split("\n").slice(2)).toEqual([
      "State: running since 05:19 UTC on nodes 0-1, protected until 06:19 UTC (59 min more), budget rank 1 of 3 (0.0% of its share used)",
      "",
      "No decision yet.",
      "",
    ]);
  });

  it("an unallocated run was never protected: it says so", () => {
    // A free job's run is protected until its start, which had read "no longer protected".
    const free = {
      ...WAITING_JOB,
      gpus: 1,
      minRuntimeSec: 0,
      state: "running",
      queuePosition: null,
      waitSentence: null,
      runs: [
        {
          nodes: [1],
          isAllocated: false,
          startSec: NOW_SEC - 900,
          endSec: null,
          protectedUntilSec: NOW_SEC - 900,
          endReason: null,
        },
      ],
      decisions: [],
    };
    // One GPU on one node: singular words, "1 GPU" and "node 1".
    expect(formatWhy(free).split("\n").slice(1, 3)).toEqual([
      "1 GPU, minimum runtime 0 (unallocated), resumable, priority normal, submitted 05:10 UTC",
      "State: running since 05:05 UTC on node 1, unallocated: on idle GPUs, never protected, uncharged, budget rank 1 of 3 (0.0% of its share used)",
    ]);
  });
});

describe("a SLURM cluster's runs", () => {
  it("squeue and why name the nodes as SLURM's squeue does, not by Allot's numbers", () => {
    const onSlurm = {
      ...QUEUE,
      running: [{ ...QUEUE.running[0]!, nodes: [0, 1], hosts: ["n1", "n2"] }],
      pending: [],
    };
    const line = formatSqueue([onSlurm], { isOwn: false, isStartView: false }).split("\n").at(-2);
    expect(line).toMatch(/ nodes n\[1-2\]; protected /);
    const running = {
      ...WAITING_JOB,
      state: "running",
      queuePosition: null,
      waitSentence: null,
      runs: [
        {
          nodes: [0, 1],
          hosts: ["n1", "n2"],
          isAllocated: true,
          startSec: NOW_SEC - 60,
          endSec: null,
          protectedUntilSec: NOW_SEC + 3540,
          endReason: null,
        },
      ],
      decisions: [],
    };
    expect(formatWhy(running).split("\n")[2]).toMatch(
      /^State: running since 05:19 UTC on nodes n\[1-2\], /,
    );
  });
});

describe("budgets' table", () => {
  it("prints weights, fractions, shares, weekly GPU-hours per cluster and leads", () => {
    const node = (
      name: string,
      depth: number,
      weight: number,
      fraction: number,
      share: number,
    ) => ({
      id: name,
      name,
      path: name,
      depth,
      isLeaf: depth > 0,
      weight,
      fraction,
      effectiveShare: share,
      leads: depth === 0 ? [{ id: "u1", name: "Ada Okafor" }] : [],
      members: [],
      gpuHoursPerWeek: { h100: share * 16 * 168 },
    });
    expect(
      formatBudgets({
        clusters: [{ name: "h100", gpus: 16 }],
        nodes: [
          node("lab", 0, 1, 1, 1),
          node("lang", 1, 3, 0.75, 0.75),
          node("vision", 1, 1, 0.25, 0.25),
        ],
      }),
    ).toBe(
      [
        "BUDGET    WEIGHT  FRACTION  EFF.SHARE  h100 GPU-h/wk  LEADS",
        "--------  ------  --------  ---------  -------------  ----------",
        "lab            1         -     100.0%          2,688  Ada Okafor",
        "  lang         3    0.7500      75.0%          2,016",
        "  vision       1    0.2500      25.0%            672",
        "",
      ].join("\n"),
    );
  });

  it("writes a share under 10% with two decimals, as the browser does", () => {
    const answer = {
      clusters: [],
      nodes: [
        {
          id: "riley",
          name: "riley",
          path: "lang/riley",
          depth: 2,
          isLeaf: true,
          weight: 1,
          fraction: 0.1,
          effectiveShare: 0.003_52,
          leads: [],
          members: [],
          gpuHoursPerWeek: {},
        },
      ],
    };
    expect(formatBudgets(answer).split("\n")[2]).toBe("    riley       1    0.1000      0.35%");
  });
});
