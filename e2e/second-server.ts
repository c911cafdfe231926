// A second production server for tests that need other settings than the main one (no demo
// mode, a database that goes away): the same build, started the way `npm start` starts it.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export type SecondServer = { url: string; output: () => string; stop: () => Promise<void> };

/** A free TCP port on 127.0.0.1. */
export async function findFreePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `scripts/serve.ts` with `env` on a free port and waits for its health route. */
export async function startSecondServer(env: Record<string, string>): Promise<SecondServer> {
  const port = await findFreePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn("node", ["--import", "tsx", "scripts/serve.ts"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      NEXTAUTH_URL: url,
      ALLOT_LIVE_SPEED: "0",
      ALLOT_TICK_SEC: "0",
      ...env,
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the second server exited with ${child.exitCode}:\n${output}`);
    }
    const isUp = await fetch(`${url}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) return { url, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the second server did not answer within 120 s:\n${output}`);
}
