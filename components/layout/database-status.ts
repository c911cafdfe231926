"use client";
// Error pages ask the health route whether the database is the cause: in production a
// server error reaches the browser without its message, so the page cannot tell otherwise.
import { useEffect, useState } from "react";
import { getDatabaseHealth } from "@/lib/api-client/clusters";

export type DatabaseStatus = "checking" | "unreachable" | "ok" | "unknown";

/** Whether /api/v1/health says the database is unreachable, checked once on mount. */
export function useDatabaseStatus(): DatabaseStatus {
  const [status, setStatus] = useState<DatabaseStatus>("checking");
  useEffect(() => {
    let isCurrent = true;
    getDatabaseHealth()
      .then((database) => {
        if (isCurrent) setStatus(database);
      })
      .catch(() => {
        if (isCurrent) setStatus("unknown");
      });
    return () => {
      isCurrent = false;
    };
  }, []);
  return status;
}

export const DATABASE_DOWN_TITLE = "The database cannot be reached";
export const DATABASE_DOWN_TEXT =
  "Allot is running, but its database is not answering, so nothing can be shown or changed " +
  "right now. Nothing you did was lost. Try again in a minute; if it lasts, tell the " +
  "site's administrators.";
