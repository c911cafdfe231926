import { describe, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma/client";
import { isDatabaseUnreachable, toDatabaseAppError } from "./prisma-errors";

const known = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("test", { code, clientVersion: "7", meta });

describe("toDatabaseAppError", () => {
  it("answers an unreachable database 503 database_unavailable, by code or by the adapter's kind", () => {
    expect(toDatabaseAppError(known("P1001"))?.status).toBe(503);
    expect(toDatabaseAppError(known("P1001"))?.code).toBe("database_unavailable");
    const raw = known("P2010", { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } });
    expect(isDatabaseUnreachable(raw)).toBe(true);
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnreachable(refused)).toBe(true);
  });

  it("answers a PostgreSQL that is shutting down or starting up 503, not a 500", () => {
    // What a model query and a raw query throw while PostgreSQL restarts (seen through PrismaPg).
    const postgres = (code: string, message: string) => ({
      driverAdapterError: { cause: { kind: "postgres", code, severity: "FATAL", message } },
    });
    const starting = known("P2039", postgres("57P03", "the database system is shutting down"));
    expect(toDatabaseAppError(starting)?.code).toBe("database_unavailable");
    const terminated = known(
      "P2010",
      postgres("57P01", "terminating connection due to administrator command"),
    );
    expect(toDatabaseAppError(terminated)?.status).toBe(503);
    const lostConnection = known("P2010", postgres("08006", "connection failure"));
    expect(isDatabaseUnreachable(lostConnection)).toBe(true);
    // A database that does not accept connections (ALTER DATABASE ... ALLOW_CONNECTIONS false),
    // as PrismaPg reports it: FATAL, whatever the code.
    const closed = known(
      "P2039",
      postgres("55000", 'database "allot" is not currently accepting connections'),
    );
    expect(toDatabaseAppError(closed)?.code).toBe("database_unavailable");
    // The same from a server whose messages are not in English: the code alone says it.
    const closedInGerman = known("P2039", {
      driverAdapterError: { cause: { kind: "postgres", code: "55000", severity: "SCHWER" } },
    });
    expect(isDatabaseUnreachable(closedInGerman)).toBe(true);
    const badQuery = known("P2010", {
      driverAdapterError: {
        cause: { kind: "postgres", code: "42601", severity: "ERROR", message: "syntax error" },
      },
    });
    expect(toDatabaseAppError(badQuery)).toBeNull();
    // Class 08 but a client's bug, or a commit whose outcome is unknown: not "retry later".
    const protocol = known("P2010", postgres("08P01", "protocol violation"));
    expect(isDatabaseUnreachable(protocol)).toBe(false);
    const unknownCommit = known("P2010", postgres("08007", "transaction resolution unknown"));
    expect(isDatabaseUnreachable(unknownCommit)).toBe(false);
  });

  it("answers lost key races 409, a vanished record 404, an unstorable value 422", () => {
    expect(toDatabaseAppError(known("P2002"))?.status).toBe(409);
    expect(toDatabaseAppError(known("P2003"))?.status).toBe(409);
    expect(toDatabaseAppError(known("P2025"))?.status).toBe(404);
    expect(toDatabaseAppError(known("P2020"))?.status).toBe(422);
  });

  it("leaves other errors to be 500s: a bug is not the caller's fault", () => {
    expect(toDatabaseAppError(known("P2010"))).toBeNull();
    expect(toDatabaseAppError(new Error("boom"))).toBeNull();
    expect(isDatabaseUnreachable(new TypeError("x is undefined"))).toBe(false);
  });
});
