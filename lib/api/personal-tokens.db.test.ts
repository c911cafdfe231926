// Personal tokens end to end through the route handlers: created and revoked by their owner
// only, stored hashed, lastUsedAt kept (once a minute at most), expiry refused with a 401
// that says so, and a token acting as its owner on the routes the person uses in the browser.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { GET as getJobs, POST as postJob } from "../../app/api/v1/jobs/route";
import { POST as cancelJob } from "../../app/api/v1/jobs/[id]/cancel/route";
import { PUT as putChildren } from "../../app/api/v1/budgets/[nodeId]/children/route";
import { GET as getTokens, POST as postToken } from "../../app/api/v1/tokens/route";
import { DELETE as deleteToken } from "../../app/api/v1/tokens/[id]/route";
import { GET as getMe } from "../../app/api/v1/me/route";
import { createOwnToken, revokeOwnToken } from "../actions/personal-tokens";
import { safeAction } from "../actions/safe-action";
import { getChildrenState } from "../data/budget-state";
import { setChildren } from "../data/budget-edits";
import { createPrismaClient } from "../data/db/client";
import { issuePersonalToken, listOthersLiveTokens } from "../data/personal-tokens";
import { createClusterToken } from "../data/tokens";
import { findUserByToken, hashToken, LAST_USED_WRITE_MS } from "../data/users";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { expectAppError } from "../testing/expect-app-error";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const LABEL = "zz-ptok";
let branch: TestBranch;

type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

function call(
  handler: unknown,
  token: string,
  {
    method = "GET",
    body,
    params = {},
    query = "",
  }: { method?: string; body?: unknown; params?: object; query?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  return (handler as Handler)(
    new Request(`http://localhost/api/v1/x${query}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params as never) },
  );
}

async function tokenFor(role: "admin" | "pi" | "researcher", expiresInDays: number | null = 30) {
  return (
    await issuePersonalToken(branch.users[role].id, { name: `${LABEL} ${role}`, expiresInDays })
  ).token;
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, LABEL);
});

afterAll(async () => {
  await db.job.deleteMany({ where: { name: { startsWith: LABEL } } });
  await db.apiToken.deleteMany({ where: { name: { startsWith: LABEL } } });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith(LABEL)),
  });
  await db.$disconnect();
});

describe("personal tokens through /api/v1/tokens", () => {
  it("makes a token only from the browser session: a token cannot make one", async () => {
    const shortLived = await tokenFor("researcher", 1);
    const before = await db.apiToken.count();
    const response = await call(postToken, shortLived, {
      method: "POST",
      body: { name: `${LABEL} forever`, expiresInDays: null },
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "A token cannot make tokens: make one on the API tokens page, signed in.",
    );
    expect(await db.apiToken.count()).toBe(before);
    // An unknown token is still 401, before anything else.
    const unknown = await call(postToken, "allot_p_unknown", { method: "POST", body: {} });
    expect(unknown.status).toBe(401);
  });

  it("stores a token made as its hash, shown once, then lists it without the token", async () => {
    await tokenFor("researcher"); // another of hers: listed too
    const { token: made, view } = await issuePersonalToken(branch.users.researcher.id, {
      name: `${LABEL} laptop`,
      expiresInDays: 7,
    });
    const created = { token: made, id: view.id, expiresAt: view.expiresAt! };
    expect(created.token).toMatch(/^allot_p_[A-Za-z0-9_-]{32}$/);
    const row = await db.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const daysLeft = (new Date(created.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(daysLeft).toBeGreaterThan(6.99);
    expect(daysLeft).toBeLessThanOrEqual(7);

    const listed = (await (await call(getTokens, created.token)).json()) as {
      tokens: Record<string, unknown>[];
    };
    // The researcher's own: this test's two and the first test's short-lived one.
    expect(listed.tokens.map((listedToken) => listedToken.name).sort()).toEqual([
      `${LABEL} laptop`,
      `${LABEL} researcher`,
      `${LABEL} researcher`,
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(listed.tokens.every((listedToken) => !("tokenHash" in listedToken))).toBe(true);
  });

  it("lists only the caller's own tokens, for admins too", async () => {
    const adminToken = await tokenFor("admin");
    const listed = (await (await call(getTokens, adminToken)).json()) as {
      tokens: { name: string }[];
    };
    expect(listed.tokens.map((token) => token.name)).toEqual([`${LABEL} admin`]);
  });

  it("revokes the caller's own token (twice is fine) and refuses another's with 404", async () => {
    const piToken = await tokenFor("pi");
    const { token: spare, view } = await issuePersonalToken(branch.users.pi.id, {
      name: `${LABEL} spare`,
      expiresInDays: null,
    });
    // Another person's token is not found, but by an admin (below, and the page's action).
    const researcherToken = await tokenFor("researcher");
    const refused = await call(deleteToken, researcherToken, {
      method: "DELETE",
      params: { id: view.id },
    });
    expect(refused.status).toBe(404);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: view.id } })).revokedAt).toBeNull();

    const revoked = await call(deleteToken, piToken, { method: "DELETE", params: { id: view.id } });
    expect(revoked.status).toBe(200);
    const body = (await revoked.json()) as { revokedAt: string | null };
    expect(body.revokedAt).not.toBeNull();
    const again = await call(deleteToken, piToken, { method: "DELETE", params: { id: view.id } });
    expect(((await again.json()) as { revokedAt: string }).revokedAt).toBe(body.revokedAt);

    const afterRevoke = await call(getJobs, spare);
    expect(afterRevoke.status).toBe(401);
    expect(await afterRevoke.json()).toEqual({
      error: { code: "unauthorized", message: "The token is unknown or revoked." },
    });
  });

  it("refuses a cluster token on the tokens routes, and a cluster token's id on DELETE", async () => {
    const clusterToken = await createClusterToken(
      "b200",
      `${LABEL} executor`,
      branch.users.admin.id,
    );
    expect((await call(getTokens, clusterToken.token)).status).toBe(403);
    const adminToken = await tokenFor("admin");
    const response = await call(deleteToken, adminToken, {
      method: "DELETE",
      params: { id: clusterToken.view.id },
    });
    expect(response.status).toBe(404);
  });
});

describe("using a personal token", () => {
  it("keeps lastUsedAt, writing it at most once a minute", async () => {
    const token = await tokenFor("researcher");
    const hash = hashToken(token);
    const lastUsed = async () =>
      (await db.apiToken.findUniqueOrThrow({ where: { tokenHash: hash } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const t0 = new Date("2026-12-01T10:00:00.000Z");
    expect((await findUserByToken(token, t0))?.id).toBe(branch.users.researcher.id);
    expect(await lastUsed()).toEqual(t0);
    await findUserByToken(token, new Date(t0.getTime() + LAST_USED_WRITE_MS - 1));
    expect(await lastUsed()).toEqual(t0);
    const t1 = new Date(t0.getTime() + LAST_USED_WRITE_MS);
    await findUserByToken(token, t1);
    expect(await lastUsed()).toEqual(t1);
  });

  it("refuses an expired token with a 401 that says it expired", async () => {
    const { token, view } = await issuePersonalToken(branch.users.researcher.id, {
      name: `${LABEL} short`,
      expiresInDays: 1,
    });
    expect((await call(getJobs, token)).status).toBe(200);
    await db.apiToken.update({
      where: { id: view.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const response = await call(getJobs, token);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.message).toMatch(/^This token expired at \d{4}-\d\d-\d\dT.*tokens page\.$/);
  });

  it("submits, lists and cancels the owner's job (GET and POST /api/v1/jobs)", async () => {
    const token = await tokenFor("researcher");
    const submitted = await call(postJob, token, {
      method: "POST",
      body: {
        cluster: "b300",
        budgetId: branch.ids[`${LABEL}/proj/alice`],
        name: `${LABEL} job`,
        gpus: 1,
        minRuntimeSec: 0,
      },
    });
    expect(submitted.status).toBe(201);
    const { job } = (await submitted.json()) as { job: { id: string; ownerEmail?: string } };
    const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.userId).toBe(branch.users.researcher.id);

    const listed = (await (await call(getJobs, token)).json()) as { jobs: { id: string }[] };
    expect(listed.jobs.map((listedJob) => listedJob.id)).toContain(job.id);

    const cancelled = await call(cancelJob, token, { method: "POST", params: { id: job.id } });
    expect(cancelled.status).toBe(200);
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe("cancelled");
  });

  it("refuses a body that is not JSON with 415 in the error shape, as a cookie-signed one", async () => {
    const token = await tokenFor("researcher");
    const response = await (postJob as Handler)(
      new Request("http://localhost/api/v1/jobs", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        body: JSON.stringify({ cluster: "b300", name: `${LABEL} text job`, gpus: 1 }),
      }),
      { params: Promise.resolve({} as never) },
    );
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: {
        code: "unsupported_media_type",
        message:
          "Send the request as JSON with 'Content-Type: application/json'; it was \"text/plain\".",
      },
    });
  });

  it("lets a lead edit their branch's split, and refuses a researcher (PUT children)", async () => {
    const projId = branch.ids[`${LABEL}/proj`]!;
    const state = await getChildrenState(db, projId);
    const body = {
      version: state.version,
      reason: "token edit",
      children: state.children.map((child) => ({ ...child, weight: child.weight + 1 })),
    };
    const researcher = await call(putChildren, await tokenFor("researcher"), {
      method: "PUT",
      body,
      params: { nodeId: projId },
    });
    expect(researcher.status).toBe(403);
    const lead = await call(putChildren, await tokenFor("pi"), {
      method: "PUT",
      body,
      params: { nodeId: projId },
    });
    expect(lead.status).toBe(200);
    const after = await getChildrenState(db, projId);
    expect(after.version).toBe(state.version + 1);
    expect(after.children.map((child) => child.weight)).toEqual(
      state.children.map((child) => child.weight + 1),
    );
  });
});

describe("the tokens page's actions", () => {
  it("create a token of the signed-in person and revoke it; another's is 404", async () => {
    const created = await safeAction(() =>
      createOwnToken(branch.users.researcher, formOf({ name: `${LABEL} form`, expiresInDays: "" })),
    );
    if (!created.ok) throw new Error(created.error.message);
    expect(created.data.expiresAt).toBeNull();
    expect((await findUserByToken(created.data.token))?.id).toBe(branch.users.researcher.id);
    const row = await db.apiToken.findUniqueOrThrow({
      where: { tokenHash: hashToken(created.data.token) },
    });

    const refused = await safeAction(() =>
      revokeOwnToken(branch.users.pi, formOf({ tokenId: row.id })),
    );
    expect(refused).toMatchObject({ ok: false, error: { status: 404 } });
    expect(await findUserByToken(created.data.token)).not.toBeNull();

    const revoked = await safeAction(() =>
      revokeOwnToken(branch.users.researcher, formOf({ tokenId: row.id })),
    );
    expect(revoked.ok).toBe(true);
    expect(await findUserByToken(created.data.token)).toBeNull();
  });

  it("an admin lists everyone else's tokens in force and revokes one (a person who leaves)", async () => {
    const { token, view } = await issuePersonalToken(branch.users.researcher.id, {
      name: `${LABEL} leaving`,
      expiresInDays: null,
    });
    // An expired token is no longer in force: not listed.
    const expired = await issuePersonalToken(
      branch.users.researcher.id,
      { name: `${LABEL} expired`, expiresInDays: 1 },
      new Date(Date.now() - 2 * 86_400_000),
    );
    const listed = await listOthersLiveTokens(branch.users.admin.id);
    expect(listed.some((row) => row.id === expired.view.id)).toBe(false);
    expect(listed.find((row) => row.id === view.id)).toMatchObject({
      name: `${LABEL} leaving`,
      owner: { name: branch.users.researcher.name, email: branch.users.researcher.email },
    });
    expect(listed.every((row) => row.revokedAt === null)).toBe(true);
    // The same through the API, for a script that offboards people; others may not ask.
    const adminToken = await tokenFor("admin");
    const viaApi = await call(getTokens, adminToken, { query: "?scope=others" });
    expect(viaApi.status).toBe(200);
    const { tokens } = (await viaApi.json()) as { tokens: { id: string; owner: object }[] };
    expect(tokens.find((row) => row.id === view.id)?.owner).toEqual({
      name: branch.users.researcher.name,
      email: branch.users.researcher.email,
    });
    const researcherToken = await tokenFor("researcher");
    expect((await call(getTokens, researcherToken, { query: "?scope=others" })).status).toBe(403);
    const bad = await call(getTokens, adminToken, { query: "?scope=all" });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { issues: { path: string }[] } }).error.issues).toEqual([
      expect.objectContaining({ path: "scope" }),
    ]);

    const revoked = await safeAction(() =>
      revokeOwnToken(branch.users.admin, formOf({ tokenId: view.id })),
    );
    expect(revoked.ok).toBe(true);
    expect(await findUserByToken(token)).toBeNull();
    expect(
      (await listOthersLiveTokens(branch.users.admin.id)).some((row) => row.id === view.id),
    ).toBe(false);
  });

  it("refuse a blank name and an expiry out of range with field errors, and a signed-out caller", async () => {
    const blank = await safeAction(() =>
      createOwnToken(branch.users.researcher, formOf({ name: " ", expiresInDays: "30" })),
    );
    expect(blank).toMatchObject({ ok: false, error: { status: 422 } });
    if (blank.ok) return;
    expect(Object.keys(blank.error.fieldErrors)).toEqual(["name"]);
    const tooLong = await safeAction(() =>
      createOwnToken(branch.users.researcher, formOf({ name: "ok", expiresInDays: "99999" })),
    );
    expect(tooLong).toMatchObject({ ok: false, error: { status: 422 } });
    if (tooLong.ok) return;
    expect(Object.keys(tooLong.error.fieldErrors)).toEqual(["expiresInDays"]);
    await expectAppError(createOwnToken(null, formOf({ name: "x" })), "unauthorized");
  });
});

describe("GET /api/v1/me", () => {
  it("names the token's owner and the leaf budgets they may charge, none for an outsider", async () => {
    const researcher = branch.users.researcher;
    const response = await call(getMe, await tokenFor("researcher"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: researcher.id,
      name: researcher.name,
      email: researcher.email,
      isAdmin: false,
      budgets: [{ id: branch.ids[`${LABEL}/proj/alice`], path: `${LABEL}/proj/alice` }],
    });
    const pi = await (await call(getMe, await tokenFor("pi"))).json();
    expect(pi.budgets).toEqual([{ id: branch.ids[`${LABEL}/solo`], path: `${LABEL}/solo` }]);
    expect((await call(getMe, "allot_p_unknown")).status).toBe(401);
  });
});
