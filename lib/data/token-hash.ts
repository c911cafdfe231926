// How API tokens are stored: their SHA-256, never the token (docs/security.md). Not server-only,
// so scripts and benchmarks can make a token for a scratch database.
import { createHash } from "node:crypto";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
