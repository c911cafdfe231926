import Link from "next/link";

/** An unknown draft id: most often a draft that was discarded (or adopted drafts' old links). */
export default function DraftNotFound() {
  return (
    <div className="card">
      <h1>No such draft</h1>
      <p>
        This draft does not exist: it was discarded, or the link is mistyped. A budget&apos;s drafts
        are listed from its page under <Link href="/budgets">Budgets</Link> (Drafts).
      </p>
    </div>
  );
}
