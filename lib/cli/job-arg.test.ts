// `allot why` and `allot cancel` take SLURM's job id as well as Allot's: looked up on every
// cluster (or --cluster) through GET /api/v1/clusters/{name}/jobs/{externalId}, against a small
// server that answers like Allot's API.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WAITING_JOB } from "./live-fixtures";
import { runLive } from "./test-helpers";

/** SLURM job id -> the clusters that have it (each a job of its own). */
const SLURM_JOBS: Record<string, string[]> = { "812": ["b200"], "77": ["h100", "b200"] };
const requests: string[] = [];
let server: Server;
let url = "";

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function fakeApi(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? "";
  requests.push(`${request.method} ${path}`);
  if (path === "/api/v1/clusters") {
    return answer(response, 200, {
      clusters: [
        { name: "h100", gpus: 16 },
        { name: "b200", gpus: 8 },
      ],
    });
  }
  if (path.endsWith("/jobs/900")) {
    // An older server: no route for SLURM ids, so proxy.ts answers.
    return answer(response, 404, {
      error: { code: "not_found", message: `No API route at ${path}.` },
    });
  }
  const byExternalId = /^\/api\/v1\/clusters\/(\w+)\/jobs\/(\d+)$/.exec(path);
  if (byExternalId) {
    const [, cluster, externalId] = byExternalId as unknown as [string, string, string];
    if (!SLURM_JOBS[externalId]?.includes(cluster)) {
      const message = `No job on ${cluster} has the executor's id "${externalId}".`;
      return answer(response, 404, { error: { code: "not_found", message } });
    }
    return answer(response, 200, {
      job: { ...WAITING_JOB, id: `job-${cluster}-${externalId}`, cluster, externalId },
    });
  }
  if (path === "/api/v1/jobs/job-wait") return answer(response, 200, { job: WAITING_JOB });
  const cancel = /^\/api\/v1\/jobs\/([\w-]+)\/cancel$/.exec(path);
  if (cancel && request.method === "POST") {
    return answer(response, 200, { job: { ...WAITING_JOB, id: cancel[1], state: "cancelled" } });
  }
  answer(response, 404, { error: { code: "not_found", message: "No such path." } });
}

function allot(...argv: string[]) {
  return runLive(argv, { ALLOT_SERVER: url, ALLOT_TOKEN: "allot_p_test" });
}

beforeAll(async () => {
  server = createServer(fakeApi);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  requests.length = 0;
});

describe("a SLURM job id given to why and cancel", () => {
  it("is looked up on every cluster and explained where it is", async () => {
    const why = await allot("why", "812");
    expect(why.code).toBe(0);
    expect(why.stdout).toMatch(/^Job job-b200-812 "eval" on b200, by Riley Chen/);
    expect(requests.sort()).toEqual([
      "GET /api/v1/clusters",
      "GET /api/v1/clusters/b200/jobs/812",
      "GET /api/v1/clusters/h100/jobs/812",
    ]);
  });

  it("is looked up on --cluster alone, whose 404 is the answer", async () => {
    expect((await allot("why", "812", "--cluster", "b200")).code).toBe(0);
    expect(requests).toEqual(["GET /api/v1/clusters/b200/jobs/812"]);
    expect(await allot("why", "812", "--cluster", "h100")).toEqual({
      code: 1,
      stdout: "",
      stderr: 'allot: the server refused: No job on h100 has the executor\'s id "812".\n',
    });
  });

  it("is a usage error when two clusters have it, and not found when none has", async () => {
    expect(await allot("why", "77")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "allot: why: SLURM job id 77 names jobs on h100 and b200; say which with --cluster <name>\n",
    });
    expect(await allot("why", "5")).toEqual({
      code: 1,
      stdout: "",
      stderr: "allot: no job has SLURM job id 5 on h100, b200\n",
    });
  });

  it("refuses an array or heterogeneous job's element id, naming the id to give", async () => {
    for (const id of ["812_3", "812+1"]) {
      expect(await allot("cancel", id)).toEqual({
        code: 2,
        stdout: "",
        stderr: `allot: cancel: ${id} names an element of a SLURM job array or heterogeneous job; Allot knows each element by its own job id, which squeue -o %A shows\n`,
      });
    }
    expect(requests).toEqual([]);
  });

  it("refuses what cannot be a job id before calling the server", async () => {
    for (const [command, id] of [
      ["why", ""],
      ["why", "."],
      ["why", ".."],
      ["cancel", ".."],
      ["why", "a/b"],
    ]) {
      expect(await allot(command!, id!)).toEqual({
        code: 2,
        stdout: "",
        stderr: `allot: ${command}: "${id}" is not a job id: give Allot's id (as allot squeue shows it) or SLURM's job id\n`,
      });
    }
    expect(requests).toEqual([]);
  });

  it("says so when the server is older than SLURM job ids, rather than 'no job'", async () => {
    const why = await allot("why", "900");
    expect(why).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "allot: the server refused: this server does not look jobs up by SLURM job id (it is older than this allot); give Allot's id, as allot squeue shows it\n",
    });
  });

  it("cancels the job it names by Allot's id; an Allot id is cancelled without a lookup", async () => {
    const byExternalId = await allot("cancel", "77", "--cluster", "h100");
    expect(byExternalId.stdout).toBe('Cancelled job job-h100-77 "eval" on h100\n');
    expect(requests).toEqual([
      "GET /api/v1/clusters/h100/jobs/77",
      "POST /api/v1/jobs/job-h100-77/cancel",
    ]);
    requests.length = 0;
    expect((await allot("cancel", "job-wait")).code).toBe(0);
    expect(requests).toEqual(["POST /api/v1/jobs/job-wait/cancel"]);
  });
});

describe("an Allot id given with --cluster", () => {
  it("is the job when it is on that cluster, and not found (exit 1, nothing cancelled) when not", async () => {
    expect((await allot("why", "job-wait", "--cluster", "h100")).code).toBe(0);
    const elsewhere = {
      code: 1,
      stdout: "",
      stderr: "allot: job job-wait is on h100, not on b200\n",
    };
    expect(await allot("why", "job-wait", "--cluster", "b200")).toEqual(elsewhere);
    expect(await allot("cancel", "job-wait", "--cluster", "b200")).toEqual(elsewhere);
    expect(requests.filter((request) => request.startsWith("POST"))).toEqual([]);
    expect((await allot("cancel", "job-wait", "--cluster", "h100")).code).toBe(0);
    expect(requests.at(-1)).toBe("POST /api/v1/jobs/job-wait/cancel");
  });
});
