// A personal token of the demo lab's admin, written straight into a scratch database, for tests
// and benchmarks that call a production server's API as a person would.
import { randomBytes } from "node:crypto";
import type { Db } from "../data/db/client";
import { hashToken } from "../data/token-hash";
import { DEMO_USERS } from "../demo/lab-org";

/** Creates the token (named `name`) and returns it in plain text. */
export async function createDemoAdminToken(db: Db, name: string): Promise<string> {
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  const token = `allot_p_${randomBytes(24).toString("base64url")}`;
  await db.apiToken.create({
    data: {
      kind: "personal",
      name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 12),
      userId: admin.id,
    },
  });
  return token;
}
