import { redirect } from "next/navigation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { lineString } from "../text";
import { captureLogs } from "../testing/log-capture";
import { safeAction } from "./safe-action";

// The shape of the nodes page's token form (lib/actions/cluster-admin.ts).
const tokenForm = z.object({ cluster: lineString().min(1), name: lineString().trim().min(1) });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("safeAction", () => {
  it("returns the work's value as { ok: true, data }", async () => {
    expect(await safeAction(async () => ({ token: "t" }))).toEqual({
      ok: true,
      data: { token: "t" },
    });
  });

  it("turns a refusal (AppError forbidden) into a 403 state, without throwing or logging", async () => {
    const log = captureLogs();
    const result = await safeAction(async () => {
      throw new AppError("forbidden", "Only admins manage nodes and tokens.");
    });
    expect(result).toEqual({
      ok: false,
      error: {
        status: 403,
        code: "forbidden",
        message: "Only admins manage nodes and tokens.",
        fieldErrors: {},
      },
    });
    expect(log.entries()).toEqual([]);
    log.stop();
  });

  it("turns bad input (a ZodError) into a 422 state with the field's error by input name", async () => {
    const form = new FormData();
    form.set("cluster", "h100");
    form.set("name", "bridge\u0000");
    const result = await safeAction(async () => tokenForm.parse(Object.fromEntries(form)));
    const message =
      "Remove the control character U+0000 at position 7: names and ids cannot contain control characters.";
    expect(result).toEqual({
      ok: false,
      error: { status: 422, code: "validation_failed", message, fieldErrors: { name: message } },
    });
  });

  it("keeps an AppError's field issues (a 422 from the data layer) as field errors", async () => {
    const result = await safeAction(async () => {
      throw new AppError("validation_failed", "Unknown cluster.", [
        { path: "clusters.0", message: 'No cluster "x".' },
        { path: "", message: "Whole form." },
      ]);
    });
    expect(result.ok ? null : result.error.fieldErrors).toEqual({
      "clusters.0": 'No cluster "x".',
      "(form)": "Whole form.",
    });
  });

  it("logs an unexpected error and answers a 500 state that does not leak it", async () => {
    const log = captureLogs();
    const crash = new Error('invalid byte sequence for encoding "UTF8": 0x00');
    const result = await safeAction(async () => {
      throw crash;
    });
    expect(result).toEqual({
      ok: false,
      error: {
        status: 500,
        code: "internal",
        message: "Something went wrong on the server; it has been logged.",
        fieldErrors: {},
      },
    });
    const [entry] = log.entries() as unknown as {
      msg: string;
      err: { message: string; stack: string };
    }[];
    expect(entry?.msg).toBe("server action: unexpected error");
    expect(entry?.err.message).toBe(crash.message);
    expect(entry?.err.stack).toBe(crash.stack);
    log.stop();
  });

  it("answers an unreachable database as the API does: 503 database_unavailable", async () => {
    const result = await safeAction(async () => {
      throw new Prisma.PrismaClientKnownRequestError("down", { code: "P1001", clientVersion: "7" });
    });
    expect(result).toMatchObject({
      ok: false,
      error: { status: 503, code: "database_unavailable", fieldErrors: {} },
    });
  });

  it("lets Next's redirect() through: it is control flow, not a failure", async () => {
    await expect(safeAction(async () => redirect("/signin"))).rejects.toMatchObject({
      digest: expect.stringMatching(/^NEXT_REDIRECT/),
    });
  });
});
