import { describe, expect, it } from "vitest";
import type { AllotClient } from "../slurm/allot-client";
import { AllotApiError } from "../slurm/allot-client";
import { ServerUnreachableError, TokenRefusedError } from "./api-errors";
import type { SlurmRunner } from "../slurm/slurm-cli";
import type { CliIo } from "./io";
import { InputError, UsageError } from "./io";
import { runSlurmCommand } from "./slurm-command";
import type { SlurmCommandDeps } from "./slurm-deps";

// Stand-ins for the two outside systems: SLURM's tools and the Allot server.
const FRESH_SLURM: Record<string, string> = {
  "scontrol show config": "ClusterName             = c1\nSlurmctldPort = 6817\n",
  "sacctmgr -n -P list account format=account,organization": "root|root\n",
  "sacctmgr -n -P list assoc cluster=c1 format=account,user,parentname,fairshare":
    "root|||1\nroot|root||1\n",
  "sacctmgr -n -P list user format=user,defaultaccount": "root|root\n",
};
const ACCOUNTS = [
  { name: "lab", parent: "root", fairshare: 1, isLeaf: false, path: "", users: [] },
  { name: "lab.a", parent: "lab", fairshare: 2, isLeaf: true, path: "a", users: ["ana"] },
];

function setup(
  options: { token?: string; answer?: () => unknown; env?: Record<string, string> } = {},
) {
  const calls: string[] = [];
  const runSlurm: SlurmRunner = (command, args) => {
    const line = [command, ...args].join(" ");
    calls.push(line);
    return Promise.resolve(FRESH_SLURM[line] ?? "");
  };
  const client: AllotClient = {
    server: "http://allot",
    get: <T>(path: string) => {
      calls.push(`GET ${path}`);
      return Promise.resolve((options.answer ?? (() => ({ accounts: ACCOUNTS })))() as T);
    },
    post: () => Promise.reject(new Error("no posts")),
  };
  const deps: SlurmCommandDeps = {
    env: { ALLOT_TOKEN: options.token ?? "allot_c_x", ...options.env },
    runSlurm,
    createClient: () => client,
  };
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: (text: string) => void (stdout += text),
    stderr: (text: string) => void (stderr += text),
  } as CliIo;
  const run = async (argv: string[]) => {
    const code = await runSlurmCommand(argv, io, deps);
    return { code, stdout, stderr, calls };
  };
  return { run, calls };
}

const SYNC = ["sync-accounts", "--cluster", "b200", "--server", "http://allot"];

describe("allot slurm", () => {
  it("lists its commands, and refuses an unknown one as a usage error", async () => {
    expect((await setup().run(["--help"])).stdout).toMatch(/sync-accounts --cluster C/);
    await expect(setup().run(["nosuch"])).rejects.toThrow(UsageError);
    expect((await setup().run(["sync-accounts", "--help"])).stdout).toMatch(/--dry-run/);
  });

  it("needs --cluster, --server and ALLOT_TOKEN", async () => {
    await expect(setup().run(["sync-accounts", "--server", "http://allot"])).rejects.toThrow(
      "slurm sync-accounts: --cluster is required",
    );
    await expect(setup({ token: "" }).run(SYNC)).rejects.toThrow(/set ALLOT_TOKEN/);
  });

  it("takes the server from ALLOT_SERVER when --server is not given, and asks for one when neither is", async () => {
    const fromEnv = await setup({ env: { ALLOT_SERVER: "http://allot" } }).run([
      "sync-accounts",
      "--cluster",
      "b200",
      "--dry-run",
    ]);
    expect(fromEnv.code).toBe(0);
    await expect(setup().run(["sync-accounts", "--cluster", "b200"])).rejects.toThrow(
      new UsageError("slurm sync-accounts: pass --server <url> or set ALLOT_SERVER"),
    );
    await expect(
      setup({ env: { ALLOT_SERVER: "allot:3000" } }).run(["sync-accounts", "--cluster", "b200"]),
    ).rejects.toThrow(
      new UsageError(
        'slurm sync-accounts: ALLOT_SERVER: "allot:3000" must start with http:// or https://',
      ),
    );
  });

  it("refuses a --server that is not an http(s) URL as bad usage, before any call", async () => {
    const { run, calls } = setup();
    await expect(
      run(["sync-accounts", "--cluster", "b200", "--server", "allot:3000"]),
    ).rejects.toThrow(
      new UsageError(
        'slurm sync-accounts: --server: "allot:3000" must start with http:// or https://',
      ),
    );
    expect(calls).toEqual([]);
  });

  it("prints the commands of a dry run, one per line, running no sacctmgr writes", async () => {
    const result = await setup().run([...SYNC, "--dry-run"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "sacctmgr -i add account lab parent=root fairshare=1 organization=allot cluster=c1",
        "sacctmgr -i add account lab.a parent=lab fairshare=2 organization=allot cluster=c1",
        "sacctmgr -i add user ana account=lab.a cluster=c1",
        "",
      ].join("\n"),
    );
    expect(result.calls.filter((call) => call.startsWith("sacctmgr -i"))).toEqual([]);
  });

  it("turns a refused token into the refused exit, naming the token it needs", async () => {
    const answer = () => {
      throw new AllotApiError(
        "Allot answered 401 to GET /x: The token is unknown or revoked.",
        401,
      );
    };
    const failure = setup({ answer }).run(SYNC);
    await expect(failure).rejects.toThrow(TokenRefusedError);
    await expect(setup({ answer }).run(SYNC)).rejects.toThrow(
      /revoked\. \(ALLOT_TOKEN must be cluster "b200"'s token or an admin's\)$/,
    );
  });

  it("turns an unreachable Allot into the unreachable exit, and a refused call into 1", async () => {
    const unreachable = () => {
      throw new AllotApiError("cannot reach Allot at http://x (ECONNREFUSED)", null);
    };
    await expect(setup({ answer: unreachable }).run(SYNC)).rejects.toThrow(ServerUnreachableError);
    // A proxy's page for a server that is down is as unreachable as no answer (exit 3).
    const proxyPage = () => {
      throw new AllotApiError("Allot answered 502 to GET /x: <html>Bad Gateway</html>", 502, false);
    };
    await expect(setup({ answer: proxyPage }).run(SYNC)).rejects.toThrow(ServerUnreachableError);
    const notFound = () => {
      throw new AllotApiError("Allot answered 404 to GET /x: No cluster b200.", 404);
    };
    await expect(setup({ answer: notFound }).run(SYNC)).rejects.toThrow(InputError);
  });
});

describe("a SLURM_CONF that names no readable file", () => {
  const env = { SLURM_CONF: "/nonexistent/slurm.conf" };
  const message =
    "SLURM_CONF=/nonexistent/slurm.conf names no readable file (ENOENT): point it at slurm.conf, or unset it for SLURM's default";
  const commands: [string, string[]][] = [
    ["sync-accounts", SYNC],
    ["register", ["register", "--cluster", "c", "--server", "http://allot", "--gpu-type", "H100"]],
    ["bridge", ["bridge", "--cluster", "c", "--server", "http://allot", "--once"]],
  ];

  it.each(commands)(
    "fails %s at once (exit 1), naming SLURM_CONF, before calling SLURM or Allot",
    async (_name, argv) => {
      const { run, calls } = setup({ env });
      const error = await run(argv).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toBe(message);
      expect(calls).toEqual([]);
    },
  );
});
