import type { Key, ReactNode } from "react";
import { ScrollRegion } from "./scroll-region";

export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Right-aligned figures. */
  isNumeric?: boolean;
  /** The cell that names the row (a th with scope="row"), usually the first. */
  isRowHeader?: boolean;
  /** Classes of the cell by its row (a health colour). */
  cellClassName?: (row: Row) => string | undefined;
};

function classes(...names: (string | false | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(" ");
  return joined || undefined;
}

/**
 * A plain table of rows in a region that scrolls sideways on a phone: column heads with
 * scope="col", figures right-aligned, one cell naming each row. `label` names the region.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
}: {
  label: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
}) {
  return (
    <ScrollRegion label={label}>
      <table>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={column.isNumeric ? "num" : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column, index) => {
                const className = classes(column.isNumeric && "num", column.cellClassName?.(row));
                return column.isRowHeader ? (
                  <th key={index} scope="row" className={classes("tree-row-head", className)}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={index} className={className}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
