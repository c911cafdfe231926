// Who may scrape GET /metrics (docs/operations.md): a caller with the token in
// ALLOT_METRICS_TOKEN (sent as `Authorization: Bearer <token>`), or from an address in
// ALLOT_METRICS_ALLOW (comma-separated addresses or IPv4/IPv6 CIDR blocks). Neither set: nobody.
// Pure: the environment, the header and the peer's address are arguments.
import { BlockList, isIP } from "node:net";
import { timingSafeEqual, createHash } from "node:crypto";
import type { Env } from "../env";
import type { Refusal } from "./request-guard";
import { BEARER_PATTERN } from "./request-guard";

export type MetricsGuard = { token: string | null; allow: BlockList | null; allowText: string };

/** Reads the guard's settings; throws on an entry of ALLOT_METRICS_ALLOW that is not an address. */
export function metricsGuardOf(env: Env): MetricsGuard {
  const token = env.ALLOT_METRICS_TOKEN?.trim() || null;
  const allowText = env.ALLOT_METRICS_ALLOW?.trim() ?? "";
  if (!allowText) return { token, allow: null, allowText };
  const allow = new BlockList();
  for (const entry of allowText
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    // A prefix longer than the address (10.0.0.0/33) would reach Node as "prefix out of range".
    const maxBits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))
    ) {
      throw new Error(`ALLOT_METRICS_ALLOW: "${entry}" is not an address or CIDR block.`);
    }
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) allow.addAddress(address, type);
    else allow.addSubnet(address, Number(bits), type);
  }
  return { token, allow, allowText };
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether `address` is in the allow-list (IPv4-mapped IPv6 addresses count as IPv4). */
function isAllowed(allow: BlockList, address: string | null): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const family = isIP(plain);
  if (family === 0) return false;
  return allow.check(plain, family === 6 ? "ipv6" : "ipv4");
}

/**
 * Null when the caller may scrape; else the refusal: 401 for a missing or wrong token when a
 * token is set (and the address is not allowed), 403 otherwise.
 *
 * @example checkMetricsAccess(metricsGuardOf({ ALLOT_METRICS_TOKEN: "s3cret-token" }), "Bearer s3cret-token", null) // null
 */
export function checkMetricsAccess(
  guard: MetricsGuard,
  authorization: string | null,
  address: string | null,
): Refusal | null {
  if (guard.allow && isAllowed(guard.allow, address)) return null;
  const given = BEARER_PATTERN.exec(authorization ?? "")?.[1];
  if (guard.token && given && sameSecret(given, guard.token)) return null;
  if (guard.token) {
    return {
      code: "unauthorized",
      message: given
        ? "The metrics token is wrong."
        : "Send 'Authorization: Bearer <ALLOT_METRICS_TOKEN>' to read the metrics.",
    };
  }
  if (guard.allow) {
    return { code: "forbidden", message: "This address may not read the metrics." };
  }
  return {
    code: "forbidden",
    message:
      "Metrics are off: set ALLOT_METRICS_TOKEN or ALLOT_METRICS_ALLOW (docs/operations.md).",
  };
}

/**
 * The header scripts/serve.ts sets on every request to the peer's socket address (replacing any
 * a client sent), since a route handler cannot see the socket.
 */
export const PEER_ADDRESS_HEADER = "x-allot-peer-address";
