import type { ReactNode } from "react";

/**
 * A section of a page in a card, named by its h2 (`headingId` keeps the id the page links to),
 * with optional actions beside the heading.
 */
export function Card({
  title,
  headingId,
  actions,
  className,
  children,
}: {
  title: ReactNode;
  headingId: string;
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const heading = <h2 id={headingId}>{title}</h2>;
  return (
    <section className={className ? `card ${className}` : "card"} aria-labelledby={headingId}>
      {actions ? (
        <div className="section-head">
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
