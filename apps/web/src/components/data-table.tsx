import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** A narrow column on a phone-width screen keeps its content on one line. */
  className?: string;
}

/** A table with a caption (read by screen readers, hidden when `captionHidden`), scrolling sideways on narrow screens. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  captionHidden = true,
}: {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  captionHidden?: boolean;
}) {
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.className} data-label={column.header}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
