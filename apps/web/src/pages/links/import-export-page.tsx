import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exportLinks, importLinks, type ImportReport } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer, plainMessage } from '../../api/errors';
import { SubmitButton } from '../../components/form';
import { Page } from '../../components/page';
import { saveBlob } from './downloads';
import { LINKS } from './links-page';
import './links.css';

/** The largest file an import takes (the API refuses a larger body: 413); checked before it is read. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

const REASONS: Record<ImportReport['skipped'][number]['reason'], string> = {
  invalid: 'Invalid',
  duplicate_slug: 'Slug taken',
  quota: 'Over your quota',
};

export function ImportExportPage() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const upload = useMutation({
    mutationFn: async (chosen: File) => answer(importLinks({ client, body: await chosen.text() })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LINKS }),
  });
  const download = useMutation({
    mutationFn: async (format: 'csv' | 'json') => {
      // Asked as a blob (the document types the answer as its text).
      const data: unknown = await answer(exportLinks({ client, query: { format }, parseAs: 'blob' }));
      const blob = data instanceof Blob ? data : new Blob([String(data)]);
      saveBlob(blob, format === 'csv' ? 'links.csv' : 'links.ndjson');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem('Choose a CSV file first.');
    if (file.size > IMPORT_MAX_BYTES) return setProblem('The file is larger than 10 MB: split it and import each part.');
    setProblem('');
    upload.mutate(file);
  };
  const report = upload.data?.data;
  return (
    <Page title="Import and export" intro="Bring links from a CSV file (ours, or an export of Bitly or Shlink), or take all of yours away.">
      <form className="card" onSubmit={submit} aria-labelledby="import-title" noValidate>
        <h2 id="import-title">Import from CSV</h2>
        <div className={`field${problem ? ' field-invalid' : ''}`}>
          <label htmlFor="import-file">CSV file</label>
          <p className="field-hint" id="import-hint">
            The first line names the columns: <code>url, slug, title, description, tags</code> (tags separated by <code>|</code>), or those
            of a Bitly or Shlink export. At most 10 MB and 100,000 links.
          </p>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            aria-describedby={problem ? 'import-hint import-problem' : 'import-hint'}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          {problem && (
            <p className="field-error" id="import-problem">
              {problem}
            </p>
          )}
        </div>
        {upload.error ? (
          <p className="form-error" role="alert">
            {plainMessage(upload.error)}
          </p>
        ) : null}
        <SubmitButton busy={upload.isPending} busyLabel="Importing…">
          Import
        </SubmitButton>
      </form>
      {report && <ImportReportView report={report} message={upload.data?.message ?? ''} />}
      <section className="card" aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <p>Every link of yours with its tags and clicks: CSV (the columns an import reads back) or JSON (one link a line).</p>
        <div className="buttons">
          <button type="button" onClick={() => download.mutate('csv')} disabled={download.isPending}>
            Export as CSV
          </button>
          <button type="button" onClick={() => download.mutate('json')} disabled={download.isPending}>
            Export as JSON
          </button>
        </div>
        {download.error ? (
          <p className="form-error" role="alert">
            {plainMessage(download.error)}
          </p>
        ) : null}
      </section>
    </Page>
  );
}

function ImportReportView({ report, message }: { report: ImportReport; message: string }) {
  return (
    <section className="card import-report" aria-labelledby="report-title">
      <h2 id="report-title">Import report</h2>
      <p role="status">{message}</p>
      <dl className="facts">
        <dt>Created</dt>
        <dd data-testid="import-created">{report.created}</dd>
        <dt>Skipped</dt>
        <dd data-testid="import-skipped">{report.skippedTotal}</dd>
        {report.skippedTotal > 0 &&
          (Object.keys(REASONS) as (keyof typeof REASONS)[])
            .filter((r) => report.skippedByReason[r])
            .map((r) => (
              <div key={r} className="contents">
                <dt>{REASONS[r]}</dt>
                <dd>{report.skippedByReason[r]}</dd>
              </div>
            ))}
      </dl>
      {report.skipped.length > 0 && (
        <div className="table-scroll">
          <table className="data-table">
            <caption>
              {report.skippedTotal > report.skipped.length ? `The first ${report.skipped.length} skipped lines` : 'Skipped lines'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Why</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {report.skipped.map((line) => (
                <tr key={line.line}>
                  <td>{line.line}</td>
                  <td>{REASONS[line.reason]}</td>
                  <td>{line.errors.map((e) => `${e.name}: ${e.error}`).join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
