import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table";

type Row = { name: string; gpus: number; down: number };

const COLUMNS: Column<Row>[] = [
  { header: "Cluster", isRowHeader: true, cell: (row) => row.name },
  { header: "GPUs", isNumeric: true, cell: (row) => row.gpus },
  {
    header: "Down",
    isNumeric: true,
    cell: (row) => row.down,
    cellClassName: (row) => (row.down > 0 ? "health-bad" : undefined),
  },
];

function render(rows: Row[]): string {
  return renderToStaticMarkup(
    createElement(DataTable<Row>, {
      label: "Clusters",
      columns: COLUMNS,
      rows,
      rowKey: (row) => row.name,
    }),
  );
}

describe("DataTable", () => {
  it("names its scrolling region and table and heads each column, figures right-aligned", () => {
    expect(render([])).toBe(
      '<div class="table-scroll" role="region" aria-label="Clusters, scrolls sideways" tabindex="0">' +
        '<table><caption class="sr-only">Clusters</caption><thead><tr>' +
        '<th scope="col">Cluster</th><th scope="col" class="num">GPUs</th><th scope="col" class="num">Down</th>' +
        "</tr></thead><tbody></tbody></table></div>",
    );
  });

  it("names each row by its row-header cell and adds a cell's own class to num", () => {
    const html = render([
      { name: "h100", gpus: 1024, down: 0 },
      { name: "b200", gpus: 512, down: 2 },
    ]);
    expect(html).toContain(
      '<tr><th scope="row" class="tree-row-head">h100</th><td class="num">1024</td><td class="num">0</td></tr>',
    );
    expect(html).toContain(
      '<tr><th scope="row" class="tree-row-head">b200</th><td class="num">512</td><td class="num health-bad">2</td></tr>',
    );
  });
});
