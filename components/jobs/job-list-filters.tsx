import Link from "next/link";
import type { JobListOptions } from "@/lib/data/job-list";
import { JOB_STATES, PAGE_SIZES, type JobListQuery } from "@/lib/validation/job-list";

/**
 * The list's filters as a plain GET form: the URL holds them (shareable, the back button walks
 * back through them), and it works before any script runs.
 */
export function JobListFilters({
  query,
  options,
}: {
  query: JobListQuery;
  options: JobListOptions;
}) {
  return (
    // autoComplete off: after Back, the browser would restore the fields of the list left, over
    // the filters of the list shown.
    <form
      className="job-filters"
      method="get"
      action="/jobs"
      aria-label="Filter jobs"
      autoComplete="off"
    >
      <div className="field">
        <label htmlFor="jf-q">Name or SLURM job id</label>
        <input id="jf-q" type="text" name="q" defaultValue={query.q ?? ""} />
      </div>
      <div className="field">
        <label htmlFor="jf-state">State</label>
        <select id="jf-state" name="state" defaultValue={query.state ?? ""}>
          <option value="">any</option>
          {JOB_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="jf-cluster">Cluster</label>
        <select id="jf-cluster" name="cluster" defaultValue={query.cluster ?? ""}>
          <option value="">any</option>
          {options.clusters.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="jf-budget">Budget</label>
        <select id="jf-budget" name="budget" defaultValue={query.budget ?? ""}>
          <option value="">any</option>
          {options.budgets.map((path) => (
            <option key={path} value={path}>
              {path}
            </option>
          ))}
        </select>
      </div>
      {options.users.length > 0 ? (
        <div className="field">
          <label htmlFor="jf-user">Person</label>
          <select id="jf-user" name="user" defaultValue={query.user ?? ""}>
            <option value="">anyone</option>
            {options.users.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="jf-perPage">Rows per page</label>
        <select id="jf-perPage" name="perPage" defaultValue={String(query.perPage)}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      {query.sort !== "submitted" ? <input type="hidden" name="sort" value={query.sort} /> : null}
      <input type="hidden" name="dir" value={query.dir} />
      <div className="field-actions">
        <button className="button button-primary" type="submit">
          Apply filters
        </button>
        <Link href="/jobs">Clear filters</Link>
      </div>
    </form>
  );
}
