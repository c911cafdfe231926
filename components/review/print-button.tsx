"use client";

/** Opens the browser's print dialog: the page has a print layout for the meeting (A4 landscape). */
export function PrintButton() {
  return (
    <button type="button" className="button" onClick={() => window.print()}>
      Print
    </button>
  );
}
