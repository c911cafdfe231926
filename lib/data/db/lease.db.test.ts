// The lease statements on the test database: one holder at a time, renewals, expiry on the
// database's clock, takeover, release, and a race of many holders for a free lease.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "./app-db";
import { readLease, releaseLease, takeLease } from "./lease";

const newName = () => `test-${randomBytes(4).toString("hex")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  await getDb().$disconnect();
});

describe("takeLease", () => {
  it("a first holder takes a new lease; a second is refused while it lives", async () => {
    const db = getDb();
    const name = newName();
    const taken = await takeLease(db, name, "a", 30);
    expect(taken).toMatchObject({ name, holder: "a", previous: null });
    const ttlMs = taken!.expiresAt.getTime() - taken!.dbNow.getTime();
    expect(ttlMs).toBe(30_000);
    expect(taken!.acquiredAt.getTime()).toBe(taken!.dbNow.getTime());
    expect(await takeLease(db, name, "b", 30)).toBeNull();
    expect(await readLease(db, name)).toMatchObject({ holder: "a" });
  });

  it("a renewal moves the expiry and keeps when it was taken", async () => {
    const db = getDb();
    const name = newName();
    const first = await takeLease(db, name, "a", 30);
    await sleep(20);
    const renewed = await takeLease(db, name, "a", 30);
    expect(renewed!.holder).toBe("a");
    expect(renewed!.acquiredAt).toEqual(first!.acquiredAt);
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(first!.expiresAt.getTime());
    expect(renewed!.previous).toEqual({ holder: "a", expiresAt: first!.expiresAt });
  });

  it("an expired lease goes to the next holder, who learns whose it was; the old one is refused", async () => {
    const db = getDb();
    const name = newName();
    const first = await takeLease(db, name, "a", 0.5);
    expect(await takeLease(db, name, "b", 30)).toBeNull();
    await sleep(700);
    const takeover = await takeLease(db, name, "b", 30);
    expect(takeover).toMatchObject({
      holder: "b",
      previous: { holder: "a", expiresAt: first!.expiresAt },
    });
    expect(takeover!.acquiredAt.getTime()).toBeGreaterThan(first!.acquiredAt.getTime());
    expect(await takeLease(db, name, "a", 30)).toBeNull();
  });

  it("of 12 holders racing for a free lease exactly one gets it", async () => {
    const db = getDb();
    const name = newName();
    const holders = Array.from({ length: 12 }, (_, index) => `h${index}`);
    const results = await Promise.all(holders.map((holder) => takeLease(db, name, holder, 30)));
    const winners = results.filter((result) => result !== null);
    expect(winners).toHaveLength(1);
    expect((await readLease(db, name))?.holder).toBe(winners[0]!.holder);
  });
});

describe("releaseLease", () => {
  it("only the holder releases; then another takes it at once", async () => {
    const db = getDb();
    const name = newName();
    await takeLease(db, name, "a", 30);
    expect(await releaseLease(db, name, "b")).toBe(false);
    expect(await takeLease(db, name, "b", 30)).toBeNull();
    expect(await releaseLease(db, name, "a")).toBe(true);
    expect(await takeLease(db, name, "b", 30)).toMatchObject({
      holder: "b",
      previous: { holder: "a" },
    });
  });
});
