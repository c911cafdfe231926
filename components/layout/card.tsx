import type { ReactNode } from "react";

/**
 * A section of a page in a card, named by its h2 (`headingId` keeps the id the page links to),
 * with optional actions beside the heading; `isTitleHidden` keeps the heading for screen readers
 * only, where the card's content says what it is.
 */
export function Card({
  title,
  headingId,
  actions,
  isTitleHidden = false,
  className,
  children,
}: {
  title: ReactNode;
  headingId: string;
  actions?: ReactNode;
  isTitleHidden?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const heading = (
    <h2 id={headingId} className={isTitleHidden ? "sr-only" : undefined}>
      {title}
    </h2>
  );
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
