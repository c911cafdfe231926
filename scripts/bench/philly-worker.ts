// npx tsx scripts/bench/philly-worker.ts [--trace path] - the browser simulation's worker path for
// the whole Philly trace (issue #8: under 20 s from the browser), timed without the database and
// the page: scenario build, then both replays in cluster threads, each packed (report, timeline,
// gzip) in its thread as soon as it is done.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { convertPhillyTrace, parsePhillyCsv, parseScenario } from "../../lib/sim";
import { gzipJsonParts } from "../../lib/simulations/gzip";
import { COMPARED_SCHEDULERS } from "../../lib/simulations/run-scenario";
import { runAndPackReplays } from "../../lib/simulations/threads/cluster-threads";

const args = process.argv.slice(2);
const at = args.indexOf("--trace");
const tracePath =
  at >= 0 ? args[at + 1]! : path.join(import.meta.dirname, "../../../shared/traces/philly.csv");

const startMs = performance.now();
const parsed = parsePhillyCsv(readFileSync(tracePath, "utf8"));
if (!parsed.ok) throw new Error(parsed.issues.slice(0, 5).join("\n"));
const scenario = parseScenario(convertPhillyTrace(parsed.rows, { gpus: 384 }));
if (!scenario.ok) throw new Error(JSON.stringify(scenario.issues.slice(0, 5)));
const builtMs = performance.now();
let replayedMs = 0;
const packed = await runAndPackReplays(
  COMPARED_SCHEDULERS.map((scheduler) => ({ scenario: scenario.value, scheduler })),
  {
    onProgress(progress) {
      if (progress.overall === 1) replayedMs = performance.now();
    },
  },
);
const timelineGz = await gzipJsonParts(
  COMPARED_SCHEDULERS.map((name, i) => [name, Promise.resolve(packed[i]!.timelineJson)] as const),
);
const doneMs = performance.now();
const gzipBytes = packed.reduce((sum, p) => sum + p.reportGz.length, timelineGz.length);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
console.log(
  [
    `philly worker path: scenario ${seconds(builtMs - startMs)}`,
    `replays ${seconds(replayedMs - builtMs)}`,
    `then the last report, timeline, gzip ${seconds(doneMs - replayedMs)}`,
    `total ${seconds(doneMs - startMs)} (target from the browser: 20 s)`,
    `stored ${(gzipBytes / 1e6).toFixed(1)} MB gzip`,
    `load average ${loadavg()[0]!.toFixed(1)}`,
  ].join(" | "),
);
