import { describe, expect, it } from "vitest";
import { resolveConnection, type LiveDeps } from "./api-config";
import { UsageError } from "./io";

const FILE = "/home/rae/.config/allot/config.json";

function deps(
  env: Record<string, string>,
  file?: { text: string; mode: number },
  home = "/home/rae",
): LiveDeps & { reads: string[] } {
  const reads: string[] = [];
  return {
    env,
    homeDir: home,
    reads,
    readConfigFile(path) {
      reads.push(path);
      return file ?? null;
    },
  };
}

const fileWith = (config: object, mode = 0o100600) => ({ text: JSON.stringify(config), mode });

describe("resolveConnection", () => {
  it("takes the flag over the environment over the file, each field on its own", () => {
    const config = fileWith({ server: "http://file:1", token: "file-token" });
    expect(
      resolveConnection(deps({ ALLOT_SERVER: "http://env:2" }, config), "http://flag:3/"),
    ).toMatchObject({
      server: "http://flag:3",
      serverSource: "--server",
      token: "file-token",
      tokenSource: `"token" in ${FILE}`,
    });
    expect(
      resolveConnection(deps({ ALLOT_SERVER: "http://env:2" }, config), undefined),
    ).toMatchObject({
      server: "http://env:2",
      serverSource: "ALLOT_SERVER",
    });
    expect(resolveConnection(deps({}, config), undefined)).toMatchObject({
      server: "http://file:1",
      serverSource: `"server" in ${FILE}`,
      token: "file-token",
    });
    // A file's token is trimmed as the environment's is: an editor's trailing newline is no part.
    const padded = fileWith({ server: "http://file:1", token: " file-token\n" });
    expect(resolveConnection(deps({}, padded), undefined).token).toBe("file-token");
  });

  it("reads no file when the flag or environment give both", () => {
    const both = deps({ ALLOT_TOKEN: "t", ALLOT_SERVER: "https://allot.example.org/lab/" });
    expect(resolveConnection(both, undefined)).toEqual({
      server: "https://allot.example.org/lab",
      serverSource: "ALLOT_SERVER",
      token: "t",
      tokenSource: "ALLOT_TOKEN",
      configPath: FILE,
    });
    expect(both.reads).toEqual([]);
  });

  it("looks under XDG_CONFIG_HOME when it is set", () => {
    const withXdg = deps({ XDG_CONFIG_HOME: "/cfg", ALLOT_SERVER: "http://a:1" });
    expect(resolveConnection(withXdg, undefined)).toMatchObject({ token: null, tokenSource: null });
    expect(withXdg.reads).toEqual(["/cfg/allot/config.json"]);
  });

  it("refuses a file with a token that others may read, but not one with a server only", () => {
    expect(() =>
      resolveConnection(
        deps({}, fileWith({ server: "http://a:1", token: "t" }, 0o100644)),
        undefined,
      ),
    ).toThrow(
      new UsageError(
        `${FILE} holds a token but others may read it (mode 644): run chmod 600 ${FILE}`,
      ),
    );
    expect(
      resolveConnection(deps({}, fileWith({ server: "http://a:1" }, 0o100644)), undefined).server,
    ).toBe("http://a:1");
  });

  it("names what is wrong: no server, a bad URL, a bad file", () => {
    expect(() => resolveConnection(deps({}), undefined)).toThrow(
      new UsageError(
        `no server: pass --server <url>, set ALLOT_SERVER, or put "server" in ${FILE}`,
      ),
    );
    expect(() => resolveConnection(deps({}), "allot:3000")).toThrow(
      new UsageError('--server: "allot:3000" must start with http:// or https://'),
    );
    expect(() => resolveConnection(deps({ ALLOT_SERVER: "nope" }), undefined)).toThrow(
      new UsageError('ALLOT_SERVER: "nope" is not a URL (e.g. https://allot.example.org)'),
    );
    expect(() => resolveConnection(deps({}, { text: "{", mode: 0o100600 }), undefined)).toThrow(
      new UsageError(`${FILE}: not JSON (expected { "server": "...", "token": "..." })`),
    );
    expect(() => resolveConnection(deps({}, fileWith({ url: "x" })), undefined)).toThrow(
      /config\.json: .*"url"/,
    );
  });
});
