// A production server started as an operator starts it (`npm start`: the same build), with
// none of the calling process's Allot, next-auth, OIDC or NODE_ENV settings leaking in. Used by
// e2e tests that need other settings than the main server and by the SLURM bridge tests.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export type ProductionServer = {
  /** The server's origin, e.g. http://127.0.0.1:3212. */
  url: string;
  /** Everything it printed so far. */
  output: () => string;
  /** The id of its process group (npm's pid): `process.kill(-pid, "SIGKILL")` kills it all. */
  pid: number;
  /** Stops the whole process group (npm does not pass SIGTERM on). */
  stop: () => Promise<void>;
};

export type ProductionServerOptions = {
  /** Extra environment: DATABASE_URL, ALLOT_DEMO, NEXTAUTH_SECRET... */
  env: Record<string, string>;
  /** How to start it: `npm start` by default. */
  command?: readonly string[];
  /** How long it may take to answer its health route; 120 s by default. */
  startTimeoutMs?: number;
};

/** Starts a server on `port` and waits for its health route. */
export async function startProductionServer(
  port: number,
  options: ProductionServerOptions,
): Promise<ProductionServer> {
  const url = `http://127.0.0.1:${port}`;
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(inherited)) {
    if (/^(ALLOT_|NEXTAUTH_|OIDC_|PGLITE_)/.test(name) || name === "NODE_ENV") {
      delete inherited[name];
    }
  }
  const [command, ...args] = options.command ?? ["npm", "start"];
  const child = spawn(command!, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      HOST: "127.0.0.1",
      PORT: String(port),
      NEXTAUTH_URL: url,
      ALLOT_LIVE_SPEED: "0",
      ALLOT_TICK_SEC: "0",
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + startTimeoutMs;
  let lastAnswer = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    // Each try has a time limit of its own, so one stuck request cannot outlast the deadline.
    const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(5000) })
      .then(async (answer) => {
        lastAnswer = `${answer.status} ${(await answer.text()).slice(0, 200)}`;
        return answer;
      })
      .catch((error: unknown) => {
        lastAnswer = String((error as Error).cause ?? error);
        return null;
      });
    if (response?.ok) return { url, output: () => output, pid: child.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(
    `the server did not answer /api/v1/health within ${startTimeoutMs / 1000} s ` +
      `(last: ${lastAnswer}):\n${output}`,
  );
}
