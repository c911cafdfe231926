/** Default staleTime of the app's pages, in milliseconds. */
export const APP_STALE_MS = 2000;
/**
 * staleTime of the simulation and what-if pages, which poll once a second while a run is
 * queued or running, in milliseconds. A plain module: the server layouts read the number itself
 * (an export of a "use client" module reaches a server component as a client reference).
 */
export const POLLING_STALE_MS = 1000;
