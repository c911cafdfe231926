import type { ReactNode } from "react";

/**
 * A box that scrolls sideways when its table is wider than the screen (a phone), or down when it
 * is given a height. It takes the keyboard focus and has a name, so that people without a mouse
 * can scroll it too (axe: scrollable-region-focusable).
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  /** What the region holds, e.g. the table's caption. */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={className ? `table-scroll ${className}` : "table-scroll"}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
