// Environment switches read in one place.

/** Any set of environment variables (process.env by default). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Demo mode: password-free sign-in as the four demo users, the demo seed and the demo executor
 * on start. Off unless asked for: ALLOT_DEMO=1 (or `true`); `npm run demo` and `npm run dev`
 * ask with `scripts/serve.ts --demo`. Any other value than 1/true/0/false throws, so that a
 * typo (`ALLOT_DEMO=yes`) stops the server at start instead of silently meaning "off".
 *
 * @example isDemoMode({ NODE_ENV: "development" }) // false: nobody asked
 */
export function isDemoMode(env: Env = process.env): boolean {
  const flag = env.ALLOT_DEMO?.trim().toLowerCase() ?? "";
  if (flag === "1" || flag === "true") return true;
  if (flag === "" || flag === "0" || flag === "false") return false;
  throw new Error(
    `ALLOT_DEMO must be 1 (or true) to ask for demo mode, or 0, false or unset; got "${env.ALLOT_DEMO}".`,
  );
}

/**
 * HOST values reached as localhost: every interface (0.0.0.0, ::, their long forms, empty) and
 * the loopback addresses, which a browser on the machine opens as localhost.
 */
function isReachedAsLocalhost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  return (
    bare === "" ||
    /^0+(\.0+){3}$/.test(bare) ||
    /^[0:]*$/.test(bare) ||
    /^127(\.\d{1,3}){3}$/.test(bare) ||
    /^(0*:)+:?0*1$/.test(bare)
  );
}

/**
 * The URL at which a server listening on `host` and `port` answers: localhost for every
 * interface or a loopback address, else `host` itself (an IPv6 address in brackets). serve.ts
 * prints it and defaults NEXTAUTH_URL to it.
 *
 * @example listenUrlOf("10.0.0.5", 3000) // "http://10.0.0.5:3000"
 * @example listenUrlOf("0.0.0.0", 3000) // "http://localhost:3000"
 */
export function listenUrlOf(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const name = isReachedAsLocalhost(host) ? "localhost" : bare.includes(":") ? `[${bare}]` : bare;
  return `http://${name}:${port}`;
}

/** The lines serve.ts prints at start in demo mode, so that nobody runs one by accident. */
export function demoModeWarning(url: string, host: string): string[] {
  const bar = "=".repeat(78);
  return [
    bar,
    "WARNING: DEMO MODE IS ON (ALLOT_DEMO=1 or --demo).",
    "WARNING: Password-free sign-in is on: anyone who can reach this server signs in as",
    "WARNING: one of the four demo users, the demo admin included, with no password.",
    `WARNING: Serving ${url}, listening on ${host}.`,
    "WARNING: Never run demo mode on a real cluster: for production unset ALLOT_DEMO and",
    "WARNING: set NEXTAUTH_SECRET and the OIDC_* variables.",
    bar,
  ];
}

const OIDC_VARIABLES = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/**
 * Throws when single sign-on is half set up (some of the three OIDC_* variables, not all), or
 * OIDC_ISSUER is not an http(s) URL: checked at start, since the sign-in page would otherwise
 * offer no way in and say nothing. True when single sign-on is set up, false when not at all.
 *
 * @example checkOidcSettings({ OIDC_ISSUER: "https://sso.lab.example" }) // throws, naming the two missing
 */
export function checkOidcSettings(env: Env = process.env): boolean {
  const missing = OIDC_VARIABLES.filter((name) => !env[name]?.trim());
  if (missing.length === OIDC_VARIABLES.length) return false;
  if (missing.length > 0) {
    throw new Error(
      `Single sign-on needs all of ${OIDC_VARIABLES.join(", ")}; ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not set.`,
    );
  }
  const issuer = env.OIDC_ISSUER!.trim();
  if (!/^https?:\/\//i.test(issuer) || !URL.canParse(issuer)) {
    throw new Error(`OIDC_ISSUER must be the provider's http(s) URL; got "${issuer}".`);
  }
  return true;
}

/** The generic OIDC provider, when all three variables are set. */
export function oidcSettings(env: Env = process.env) {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME?.trim() || "Single sign-on" };
}

/**
 * The site's admins: `ALLOT_ADMINS`, email addresses separated by commas or spaces, lower-cased.
 * Null when unset or empty: then sign-in leaves everyone's admin flag as it is. When set, a
 * person signing in through OIDC is an admin exactly when their email is listed (lib/data/users.ts
 * `signInSsoUser`). A word that is not an email throws, so that a typo stops the server at start
 * instead of silently leaving a site without its admin.
 *
 * @example adminEmails({ ALLOT_ADMINS: "Ada@Lab.example, grace@lab.example" })
 * // ["ada@lab.example", "grace@lab.example"]
 */
export function adminEmails(env: Env = process.env): string[] | null {
  const words = (env.ALLOT_ADMINS ?? "").split(/[\s,]+/).filter((word) => word !== "");
  if (words.length === 0) return null;
  const wrong = words.filter((word) => !/^[^@\s]+@[^@\s]+$/.test(word));
  if (wrong.length > 0) {
    throw new Error(
      `ALLOT_ADMINS must list email addresses separated by commas; these are not: ${wrong
        .map((word) => `"${word}"`)
        .join(", ")}.`,
    );
  }
  return [...new Set(words.map((word) => word.toLowerCase()))];
}

/** A whole number of `unit` from `name`, `min` to `max`; undefined when unset or empty; throws otherwise. */
function wholeNumber(
  env: Env,
  name: string,
  min: number,
  max: number,
  unit: string,
): number | undefined {
  const text = env[name]?.trim() ?? "";
  if (text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(
      `${name} must be a whole number of ${unit} from ${min} to ${max}; got "${env[name]}".`,
    );
  }
  return value;
}

/**
 * Real seconds between timer ticks of every cluster: `ALLOT_TICK_SEC`, 0 (no timer) to 3600,
 * default 5. A value that is not one stops the server at start, not the timer later.
 *
 * @example tickSeconds({ ALLOT_TICK_SEC: "2" }) // 2
 */
export function tickSeconds(env: Env = process.env): number {
  const text = env.ALLOT_TICK_SEC?.trim() ?? "";
  if (text === "") return 5;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 3600) {
    throw new Error(`ALLOT_TICK_SEC must be seconds from 0 to 3600; got "${env.ALLOT_TICK_SEC}".`);
  }
  return value;
}

/**
 * Days of history the demo seed simulates into an empty database: `ALLOT_DEMO_HISTORY_DAYS`,
 * 1 to 365; undefined when unset (the seed's default, lib/demo/lab-history.ts HISTORY_DAYS).
 * Tests whose servers need the lab but not its month (e2e/replicas.spec.ts) ask for fewer, so
 * they start sooner. Any other value throws at start.
 *
 * @example demoHistoryDays({ ALLOT_DEMO_HISTORY_DAYS: "2" }) // 2
 */
export function demoHistoryDays(env: Env = process.env): number | undefined {
  return wholeNumber(env, "ALLOT_DEMO_HISTORY_DAYS", 1, 365, "days");
}

/**
 * How long the leader lease lasts after its last renewal: `ALLOT_LEASE_TTL_SEC`, 6 to 600 s;
 * undefined when unset (lib/leader/leadership.ts LEASE_TTL_SEC, 30 s). Holders renew every third
 * of it and stop a sixth of it before it can expire (leadership.ts leaseTimes), so a dead leader
 * is replaced between 2/3 and 4/3 of it later. Tests shorten it to wait less for a failover; a
 * site keeps the default, the same on every replica (docs/deploy.md). Any other value throws.
 *
 * @example leaseTtlSec({ ALLOT_LEASE_TTL_SEC: "12" }) // 12
 */
export function leaseTtlSec(env: Env = process.env): number | undefined {
  return wholeNumber(env, "ALLOT_LEASE_TTL_SEC", 6, 600, "seconds");
}
