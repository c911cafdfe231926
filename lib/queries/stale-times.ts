// How long an answer counts as fresh, in milliseconds: the browser query clients' defaults
// (components/providers/query-provider.tsx). A plain module: the server layouts read the numbers
// themselves (an export of a "use client" module reaches a server component as a reference).
import { RUN_POLL_MS } from "./run-status";

/** Default staleTime of the app's pages. */
export const APP_STALE_MS = 2000;

/** staleTime of the simulation and what-if pages, which poll a running run this often. */
export const POLLING_STALE_MS = RUN_POLL_MS;
