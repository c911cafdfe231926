import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serialize } from "node:v8";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../data/db/client";
import type { SimulationInputs } from "../store/simulation-store";
import { convertPhillyTrace, parsePhillyCsv, parseScenario, type Scenario } from "../../sim";
import { loadCachedSimulationScenario, loadSimulationScenario } from "./load-scenario";
import {
  KEPT_ENTRIES,
  readCachedScenario,
  scenarioCacheKey,
  writeCachedScenario,
} from "./scenario-cache";

const CSV = [
  "timestamp,duration,num_gpus,gpu_time,cluster",
  "2017-10-09 07:01:55,66.0,1,66.0,11cb48",
  "2017-10-09 07:03:10,5000.0,8,40000.0,6214e9",
  "2017-10-09 08:00:00,120.0,2,240.0,11cb48",
].join("\n");

function phillyScenario(csv: string): Scenario {
  const rows = parsePhillyCsv(csv);
  if (!rows.ok) throw new Error(rows.issues.join("\n"));
  const parsed = parseScenario(convertPhillyTrace(rows.rows, { gpus: 16 }));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "scenario-cache-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entries = () => readdirSync(dir).filter((name) => name.endsWith(".scenario"));

describe("the scenario cache", () => {
  it("keys on every part, whatever their keys' order", () => {
    const key = scenarioCacheKey({ code: "a", options: { days: 2, clusterGpus: 64 } });
    expect(scenarioCacheKey({ options: { clusterGpus: 64, days: 2 }, code: "a" })).toBe(key);
    expect(scenarioCacheKey({ code: "b", options: { days: 2, clusterGpus: 64 } })).not.toBe(key);
    expect(scenarioCacheKey({ code: "a", options: { days: 3, clusterGpus: 64 } })).not.toBe(key);
    expect(scenarioCacheKey({ code: "a", options: { days: 2 } })).not.toBe(key);
  });

  it("gives back the scenario written, and nothing for an unknown key", () => {
    const scenario = phillyScenario(CSV);
    const bytes = serialize(scenario);
    writeCachedScenario(dir, "k1", bytes);
    const cached = readCachedScenario(dir, "k1");
    expect(cached?.scenario).toStrictEqual(scenario);
    expect(cached?.bytes).toEqual(bytes);
    expect(readCachedScenario(dir, "k2")).toBeNull();
    expect(readdirSync(dir)).toEqual(["k1.scenario"]); // nothing left aside
  });

  it("never reads a file being written, and misses on a broken entry (edge)", () => {
    const bytes = serialize(phillyScenario(CSV));
    writeFileSync(path.join(dir, `k1.scenario.${process.pid}.tmp`), bytes.subarray(0, 100));
    expect(readCachedScenario(dir, "k1")).toBeNull();
    writeFileSync(path.join(dir, "k2.scenario"), bytes.subarray(0, bytes.length / 2));
    expect(readCachedScenario(dir, "k2")).toBeNull();
  });

  it(`keeps the ${KEPT_ENTRIES} newest entries and removes abandoned files`, () => {
    const bytes = serialize({ n: 1 });
    const nowSec = Date.now() / 1000;
    for (let i = 0; i < KEPT_ENTRIES + 2; i++) {
      writeCachedScenario(dir, `k${i}`, bytes);
      utimesSync(path.join(dir, `k${i}.scenario`), nowSec - 100 + i, nowSec - 100 + i);
    }
    const abandoned = path.join(dir, "k9.scenario.1.tmp");
    writeFileSync(abandoned, bytes);
    utimesSync(abandoned, nowSec - 3600, nowSec - 3600);
    writeCachedScenario(dir, "newest", bytes);
    expect(entries().sort()).toEqual([
      "k3.scenario",
      "k4.scenario",
      "k5.scenario",
      "newest.scenario",
    ]);
  });

  it("does not throw when it cannot write (edge: its directory is a file)", () => {
    const file = path.join(dir, "file");
    writeFileSync(file, "x");
    expect(() => writeCachedScenario(file, "k1", serialize({ n: 1 }))).not.toThrow();
  });
});

describe("loadCachedSimulationScenario", () => {
  const db = {} as Db; // Philly does not read the database
  const inputs = (options: object): SimulationInputs => ({
    id: "s1",
    source: "philly",
    options: options as SimulationInputs["options"],
    scenarioGz: null,
    draftId: null,
  });
  const previous = process.env.ALLOT_PHILLY_CSV;
  afterEach(() => {
    if (previous === undefined) delete process.env.ALLOT_PHILLY_CSV;
    else process.env.ALLOT_PHILLY_CSV = previous;
  });

  it("builds a Philly scenario once per code, trace and options, then reads it back", async () => {
    const trace = path.join(dir, "philly.csv");
    writeFileSync(trace, CSV);
    process.env.ALLOT_PHILLY_CSV = trace;
    const cache = { dir: path.join(dir, "cache"), codeId: "code-1" };
    const options = { clusterGpus: 16 };
    const expected = await loadSimulationScenario(db, inputs(options));

    const built = await loadCachedSimulationScenario(db, inputs(options), cache);
    expect(built).toStrictEqual({ ...expected, bytes: expect.any(Uint8Array) });
    const files = readdirSync(cache.dir);
    const read = await loadCachedSimulationScenario(db, inputs(options), cache);
    expect(read).toStrictEqual(built);
    expect(readdirSync(cache.dir)).toEqual(files); // read, not written again

    await loadCachedSimulationScenario(db, inputs({ clusterGpus: 16, days: 1 }), cache);
    await loadCachedSimulationScenario(db, inputs(options), { ...cache, codeId: "code-2" });
    writeFileSync(trace, CSV.replace("66.0,1", "67.0,1"));
    const changed = await loadCachedSimulationScenario(db, inputs(options), cache);
    expect(readdirSync(cache.dir)).toHaveLength(4);
    expect(changed.ok && changed.value.jobs[0]!.workSec).toBe(67);
  });

  it("builds other sources each time, without bytes", async () => {
    const cache = { dir: path.join(dir, "cache"), codeId: "code-1" };
    const lab = { ...inputs({ days: 1 }), source: "lab" };
    const loaded = await loadCachedSimulationScenario(db, lab, cache);
    expect(loaded.ok && loaded.bytes).toBe(undefined);
    expect(readdirSync(dir)).toEqual([]);
  });
});
