"use client";

import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";

/** Which way a box's content is larger than the box, in words; null when it all shows. */
export type Overflow = "sideways" | "down" | "sideways and down" | null;

type BoxSize = Pick<HTMLElement, "scrollWidth" | "clientWidth" | "scrollHeight" | "clientHeight">;

/** A pixel of rounding is not overflow: zoomed pages report a fractional width as one more. */
export function measureOverflow(box: BoxSize): Overflow {
  const isWide = box.scrollWidth > box.clientWidth + 1;
  const isTall = box.scrollHeight > box.clientHeight + 1;
  if (isWide && isTall) return "sideways and down";
  if (isWide) return "sideways";
  return isTall ? "down" : null;
}

/**
 * Measures the box now and whenever it or its content changes size. Before the first measure
 * (the server's page) the box counts as scrolling sideways, so that a phone without scripts can
 * still reach it by keyboard.
 */
function useOverflow(ref: RefObject<HTMLElement | null>): Overflow {
  const [overflow, setOverflow] = useState<Overflow>("sideways");
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflow(measureOverflow(box));
    const sizes = new ResizeObserver(measure);
    const observeAll = () => {
      sizes.disconnect();
      sizes.observe(box);
      for (const child of box.children) sizes.observe(child);
    };
    // A table that is replaced (another page of rows) is observed in its turn.
    const swaps = new MutationObserver(observeAll);
    swaps.observe(box, { childList: true });
    observeAll();
    return () => {
      swaps.disconnect();
      sizes.disconnect();
    };
  }, [ref]);
  return overflow;
}

/**
 * A box that scrolls sideways when its table is wider than the screen (a phone), or down when it
 * is given a height. Only while it scrolls is it a named region that takes the keyboard focus
 * (axe: scrollable-region-focusable): a box that shows everything is no extra tab stop, and its
 * name ("Per budget, scrolls sideways") differs from the section around it.
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
  const ref = useRef<HTMLDivElement>(null);
  const overflow = useOverflow(ref);
  // A focused box that stops scrolling (a turned phone, a narrower table) stays a tab stop until
  // focus leaves it: taking its tabIndex away would drop the focus to the page.
  const [isFocused, setFocused] = useState(false);
  const classes = className ? `table-scroll ${className}` : "table-scroll";
  if (overflow === null && !isFocused) {
    return (
      <div ref={ref} className={classes}>
        {children}
      </div>
    );
  }
  return (
    <div
      ref={ref}
      className={classes}
      role="region"
      aria-label={overflow ? `${label}, scrolls ${overflow}` : label}
      tabIndex={0}
      onFocus={(event) => setFocused(event.target === event.currentTarget)}
      onBlur={(event) => {
        if (event.target === event.currentTarget) setFocused(false);
      }}
    >
      {children}
    </div>
  );
}
