// Shared by the review's table, headline and charts.

/** A funded budget is served when it received at least this part of its entitlement. */
export const FULFILMENT_TARGET = 0.95;
