// Writes signed in by the browser's cookie must come from the app's own origin and, on the API,
// be JSON; bearer-token calls are exempt (docs/decisions/080-csrf-and-demo-mode.md). Node 10 of
// b300 is the target throughout, and no test changes its health: a refused write must leave
// nothing behind, and an executor event's id shows it (a stored id answers "duplicate").
import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { freePort, sameOrigin, signInAs, waitForHydration } from "./fixtures";

const EVENTS = "/api/v1/clusters/b300/events";
const NODE = 10;

/** A page on another port of the same host: same-site, so SameSite=Lax lets the cookie go. */
let attacker: { origin: string; server: Server };

test.beforeAll(async () => {
  // A real server, not a routed page: Chromium keeps pages of unknown address from local ones.
  const port = await freePort(Number(new URL(sameOrigin().Origin).port) + 9);
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<!doctype html><title>elsewhere</title><p>another site on this host</p>");
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  attacker = { origin: `http://localhost:${port}`, server };
});

test.afterAll(async () => {
  await new Promise((resolve) => attacker?.server.close(resolve));
});

function eventId(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Posts `node.healthy` for NODE from the app's origin: "ignored" unless the id was stored. */
async function outcomeOfId(page: Page, id: string): Promise<unknown> {
  const response = await page.request.post(EVENTS, {
    headers: sameOrigin(),
    data: { events: [{ id, kind: "node.healthy", node: NODE }] },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { results: unknown[] }).results[0];
}

async function expectNodeHealthy(page: Page): Promise<void> {
  await page.goto("/clusters/b300/nodes");
  await expect(page.getByRole("row", { name: new RegExp(`^${NODE} healthy`) })).toBeVisible();
}

test("a same-site page on another port cannot post an event with the admin's cookie", async ({
  page,
}) => {
  await signInAs(page, "admin");
  const app = sameOrigin().Origin;
  await page.goto(`${attacker.origin}/`);

  // The headers Chromium really sent (Playwright reports a no-cors request's provisional ones).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const sent: Record<string, string>[] = [];
  cdp.on("Network.requestWillBeSentExtraInfo", (event) => sent.push(event.headers));
  const target = `${app}${EVENTS}`;
  const id = eventId("cross-site");
  const [response] = await Promise.all([
    page.waitForResponse(target),
    page.evaluate(
      async ({ target, body }) => {
        // The classic cross-site write: a simple request (no preflight) with the cookie.
        await fetch(target, {
          method: "POST",
          mode: "no-cors",
          credentials: "include",
          headers: { "content-type": "text/plain" },
          body,
        });
      },
      { target, body: JSON.stringify({ events: [{ id, kind: "node.down", node: NODE }] }) },
    ),
  ]);
  // SameSite=Lax did not stop it: the attack carried the admin's session cookie.
  await expect
    .poll(() => sent.find((headers) => headers.Origin === attacker.origin)?.Cookie ?? "")
    .toContain("next-auth.session-token=");
  // The page may not read an opaque answer (nor may Playwright): its status, and what was stored.
  expect(response.status()).toBe(403);

  await expectNodeHealthy(page);
  expect(await outcomeOfId(page, id)).toEqual({
    id,
    outcome: "ignored",
    note: `Node ${NODE} is already healthy.`,
  });
});

test("the app's own page posts JSON with its cookie and is accepted", async ({ page }) => {
  await signInAs(page, "admin");
  const id = eventId("same-origin");
  const answer = await page.evaluate(
    async ({ url, body }) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { url: EVENTS, body: JSON.stringify({ events: [{ id, kind: "node.healthy", node: NODE }] }) },
  );
  expect(answer).toEqual({
    status: 200,
    body: {
      results: [{ id, outcome: "ignored", note: `Node ${NODE} is already healthy.` }],
      tick: null,
    },
  });
});

test("cookie writes with another or no Origin, or not JSON, are refused and store nothing", async ({
  page,
}) => {
  await signInAs(page, "admin");
  const app = sameOrigin().Origin;
  const down = (id: string) => ({ events: [{ id, kind: "node.down", node: NODE }] });

  const elsewhere = eventId("other-origin");
  const other = await page.request.post(EVENTS, {
    headers: { Origin: "http://allot.evil.example" },
    data: down(elsewhere),
  });
  expect(other.status()).toBe(403);
  expect((await other.json()).error).toEqual({
    code: "forbidden",
    message: `Cross-origin request refused: Origin "http://allot.evil.example" is not this app's origin "${app}".`,
  });

  const missing = eventId("no-origin");
  const none = await page.request.post(EVENTS, { data: down(missing) });
  expect(none.status()).toBe(403);
  expect((await none.json()).error).toEqual({
    code: "forbidden",
    message:
      "A POST to the API signed in by cookie must carry an Origin header, as browsers send; " +
      "it has none. Scripts and executors send 'Authorization: Bearer <token>' instead.",
  });

  const plain = eventId("text-plain");
  const text = await page.request.post(EVENTS, {
    headers: { ...sameOrigin(), "content-type": "text/plain" },
    data: JSON.stringify(down(plain)),
  });
  expect(text.status()).toBe(415);
  expect((await text.json()).error).toEqual({
    code: "unsupported_media_type",
    message:
      "Send the request as JSON with 'Content-Type: application/json'; it was \"text/plain\".",
  });

  await expectNodeHealthy(page);
  for (const id of [elsewhere, missing, plain]) {
    expect(await outcomeOfId(page, id)).toMatchObject({ id, outcome: "ignored" });
  }
});

test("an executor's bearer token posts with no Origin; a body not sent as JSON is a 415", async ({
  page,
  playwright,
}) => {
  await signInAs(page, "admin");
  await page.goto("/clusters/b300/tokens");
  await waitForHydration(page);
  // Creating and revoking the token are server actions from the app's page: accepted.
  await page.getByLabel("Token name").fill("e2e cross-site executor");
  await page.getByRole("button", { name: "Create executor token" }).click();
  const token = (await page.getByLabel("New token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^allot_c_/);

  const executor = await playwright.request.newContext({ baseURL: sameOrigin().Origin });
  const headers = { Authorization: `Bearer ${token}` };
  const json = eventId("bearer-json");
  const asJson = await executor.post(EVENTS, {
    headers,
    data: { events: [{ id: json, kind: "node.healthy", node: NODE }] },
  });
  expect(asJson.status()).toBe(200);
  expect((await asJson.json()).results).toEqual([
    { id: json, outcome: "ignored", note: `Node ${NODE} is already healthy.` },
  ]);
  const text = eventId("bearer-text");
  const asText = await executor.post(EVENTS, {
    headers: { ...headers, "content-type": "text/plain" },
    data: JSON.stringify({ events: [{ id: text, kind: "node.healthy", node: NODE }] }),
  });
  expect(asText.status()).toBe(415);
  expect((await asText.json()).error.code).toBe("unsupported_media_type");
  await executor.dispose();

  await page.getByRole("button", { name: "Revoke token e2e cross-site executor" }).click();
  await page
    .getByRole("dialog", { name: "Revoke token e2e cross-site executor?" })
    .getByRole("button", { name: "Revoke the token" })
    .click();
  await expect(
    page.getByRole("row", { name: /^e2e cross-site executor .* revoked$/ }),
  ).toBeVisible();
});

test("a server action replayed with no Origin, or another one, is refused", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/clusters/b300/nodes");
  await waitForHydration(page);
  // Take the real request the "Mark down" button sends, and keep it from the server.
  let captured: { headers: Record<string, string>; body: Buffer } | null = null;
  await page.route("**/clusters/b300/nodes", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    captured = { headers: await request.allHeaders(), body: request.postDataBuffer()! };
    return route.abort();
  });
  await page.getByRole("button", { name: `Mark down node ${NODE}`, exact: true }).click();
  await page
    .getByRole("dialog", { name: `Mark node ${NODE} down?` })
    .getByRole("button", { name: `Mark node ${NODE} down` })
    .click();
  await expect.poll(() => captured).not.toBeNull();
  const { headers, body } = captured!;
  expect(headers["next-action"]).toMatch(/^[0-9a-f]+$/);
  expect(headers.origin).toBe(sameOrigin().Origin);
  await page.unroute("**/clusters/b300/nodes");

  const action = {
    "next-action": headers["next-action"]!,
    "content-type": headers["content-type"]!,
    accept: "text/x-component",
  };
  const none = await page.request.post("/clusters/b300/nodes", { headers: action, data: body });
  expect(none.status()).toBe(403);
  expect(await none.json()).toEqual({
    error: {
      code: "forbidden",
      message:
        "A server action must carry an Origin header, as browsers send; it has none. " +
        "Scripts and executors send 'Authorization: Bearer <token>' instead.",
    },
  });
  const other = await page.request.post("/clusters/b300/nodes", {
    headers: { ...action, Origin: attacker.origin },
    data: body,
  });
  expect(other.status()).toBe(403);
  expect((await other.json()).error.code).toBe("forbidden");
  // A form post without JavaScript (no Next-Action header) is a server action too.
  const form = await page.request.post("/clusters/b300/nodes", {
    multipart: { cluster: "b300", node: String(NODE), health: "down" },
  });
  expect(form.status()).toBe(403);

  await expectNodeHealthy(page);
});
