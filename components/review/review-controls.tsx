"use client";

import Form from "next/form";
import { useState } from "react";

/**
 * The review's period (a calendar month, or any range of days) and cluster. A plain GET form:
 * the choice lands in the URL, so a link reproduces the view.
 */
export function ReviewControls({
  month,
  fromDate,
  toDate,
  cluster,
  clusters,
}: {
  month: string | null;
  fromDate: string;
  toDate: string;
  cluster: string | null;
  clusters: { name: string; gpuType: string }[];
}) {
  const [mode, setMode] = useState<"month" | "range">(month ? "month" : "range");
  // The radios belong to no form (form="none"), so only the month or the two days are sent:
  // the inputs of the other kind are disabled.
  return (
    <Form action="/review" className="review-controls" aria-label="Period and cluster">
      <fieldset>
        <legend>Period</legend>
        <label className="choice">
          <input
            type="radio"
            name="mode"
            value="month"
            checked={mode === "month"}
            onChange={() => setMode("month")}
            form="none"
          />
          Month
        </label>
        <input
          type="month"
          name="month"
          aria-label="Month"
          defaultValue={month ?? fromDate.slice(0, 7)}
          disabled={mode !== "month"}
          required
        />
        <label className="choice">
          <input
            type="radio"
            name="mode"
            value="range"
            checked={mode === "range"}
            onChange={() => setMode("range")}
            form="none"
          />
          Days
        </label>
        <input
          type="date"
          name="from"
          aria-label="From"
          defaultValue={fromDate}
          disabled={mode !== "range"}
          required
        />
        <span aria-hidden="true">–</span>
        <input
          type="date"
          name="to"
          aria-label="To (included)"
          defaultValue={toDate}
          disabled={mode !== "range"}
          required
        />
      </fieldset>
      <span className="cluster-choice">
        <label htmlFor="review-cluster">Cluster</label>{" "}
        <select id="review-cluster" name="cluster" defaultValue={cluster ?? ""}>
          <option value="">All clusters</option>
          {clusters.map((item) => (
            <option key={item.name} value={item.name}>
              {item.name} ({item.gpuType})
            </option>
          ))}
        </select>
      </span>
      <button type="submit" className="button button-primary">
        Show
      </button>
    </Form>
  );
}
