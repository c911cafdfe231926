import type { ReactNode } from "react";

/**
 * The top of every page: an optional trail back (breadcrumbs or a back link), the one h1, the
 * lines under it (`children`), and actions on the right (a primary button, links).
 */
export function PageHead({
  title,
  trail,
  actions,
  children,
}: {
  title: ReactNode;
  trail?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const text = (
    <>
      {trail}
      <h1>{title}</h1>
      {children}
    </>
  );
  if (!actions) return <div className="page-head">{text}</div>;
  return (
    <div className="page-head section-head">
      <div>{text}</div>
      {actions}
    </div>
  );
}
