"use client";

import {
  DATABASE_DOWN_TEXT,
  DATABASE_DOWN_TITLE,
  useDatabaseStatus,
} from "@/components/layout/database-status";

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const isDatabaseDown = useDatabaseStatus() === "unreachable";
  return (
    <main className="center-page">
      <div className="card signin" role="alert">
        <h1>{isDatabaseDown ? DATABASE_DOWN_TITLE : "Something went wrong"}</h1>
        <p className="muted">
          {isDatabaseDown
            ? DATABASE_DOWN_TEXT
            : `The page could not be shown. The error has been logged${error.digest ? ` (reference ${error.digest})` : ""}.`}
        </p>
        <button className="button button-primary" type="button" onClick={reset}>
          Try again
        </button>
      </div>
    </main>
  );
}
