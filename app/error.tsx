"use client";

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <main className="center-page">
      <div className="card signin" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">
          The page could not be shown. The error has been logged
          {error.digest ? ` (reference ${error.digest})` : ""}.
        </p>
        <button className="button button-primary" type="button" onClick={reset}>
          Try again
        </button>
      </div>
    </main>
  );
}
