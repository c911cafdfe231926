"use client";

import {
  DATABASE_DOWN_TEXT,
  DATABASE_DOWN_TITLE,
  useDatabaseStatus,
} from "@/components/layout/database-status";

export default function GlobalError({
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const isDatabaseDown = useDatabaseStatus() === "unreachable";
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "2rem" }}>
        <h1>{isDatabaseDown ? DATABASE_DOWN_TITLE : "Allot could not load"}</h1>
        <p>
          {isDatabaseDown
            ? DATABASE_DOWN_TEXT
            : "Something failed while loading the application. Try again in a moment."}
        </p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </body>
    </html>
  );
}
