import Link from "next/link";

export default function NotFound() {
  return (
    <main className="center-page">
      <div className="card signin">
        <h1>Page not found</h1>
        <p className="muted">
          There is nothing at this address. It may have moved, or the link may be mistyped.
        </p>
        <Link className="button button-primary" href="/">
          Go to the overview
        </Link>
      </div>
    </main>
  );
}
