/** Previous/next over a list the API pages with start and limit, and where in it the page is. */
export function Pager({
  start,
  limit,
  total,
  onStart,
  label,
}: {
  start: number;
  limit: number;
  total: number;
  onStart: (start: number) => void;
  label: string;
}) {
  if (total <= limit && start === 0) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={start === 0} onClick={() => onStart(Math.max(0, start - limit))}>
        Previous
      </button>
      <span>
        {Math.min(start + 1, total)}–{Math.min(start + limit, total)} of {total}
      </span>
      <button type="button" disabled={start + limit >= total} onClick={() => onStart(start + limit)}>
        Next
      </button>
    </nav>
  );
}
