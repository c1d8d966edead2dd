/**
 * The pure pieces of the soak benchmark (`soak.bench.ts`): reading a sample out of the app's /metrics,
 * judging whether a series keeps growing after warm-up, and drawing the series as an SVG a person can look at.
 */

/** The value of a metric in Prometheus' text format, summed over the series whose labels include `labels`; null when absent. */
export function metricIn(text: string, name: string, labels: Record<string, string> = {}): number | null {
  let found = false;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    const labelText = line[name.length] === '{' ? line.slice(name.length + 1, line.indexOf('}')) : '';
    if (!Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (!Number.isFinite(value)) continue;
    found = true;
    sum += value;
  }
  return found ? sum : null;
}

/** One reading, every few seconds of the soak. */
export interface SoakSample {
  /** Seconds since the load started. */
  t: number;
  rssMb: number | null;
  heapUsedMb: number | null;
  /** p99 of the event-loop delay since the previous reading (prom-client resets it at each scrape), ms. */
  eventLoopP99Ms: number | null;
  activeHandles: number | null;
  pool: { total: number | null; idle: number | null; waiting: number | null };
  clickBufferRows: number | null;
  /** Redirects the server answered (its counter), and clicks it has written: their gap is what it holds. */
  redirects: number | null;
  clicksWritten: number | null;
  /** API requests answered with a 5xx status (the fault under test), from lnk_http_requests_total. */
  serverErrors: number | null;
  /** Requests per second since the previous reading (API requests + short URLs answered). */
  requestsPerSecond: number | null;
}

export function sampleOf(
  text: string,
  t: number,
  rssMb: number | null,
): Omit<SoakSample, 'requestsPerSecond'> & { answered: number | null } {
  const mb = (bytes: number | null) => (bytes === null ? null : +(bytes / 1048576).toFixed(1));
  const redirectsAll = metricIn(text, 'lnk_redirects_total');
  const api = metricIn(text, 'lnk_http_requests_total');
  let serverErrors = 0;
  for (const status of ['500', '502', '503', '504']) serverErrors += metricIn(text, 'lnk_http_requests_total', { status }) ?? 0;
  const lag = metricIn(text, 'lnk_nodejs_eventloop_lag_p99_seconds');
  return {
    t,
    rssMb,
    heapUsedMb: mb(metricIn(text, 'lnk_nodejs_heap_size_used_bytes')),
    eventLoopP99Ms: lag === null ? null : +(lag * 1000).toFixed(2),
    activeHandles: metricIn(text, 'lnk_nodejs_active_handles_total'),
    pool: {
      total: metricIn(text, 'lnk_db_pool_connections', { state: 'total' }),
      idle: metricIn(text, 'lnk_db_pool_connections', { state: 'idle' }),
      waiting: metricIn(text, 'lnk_db_pool_connections', { state: 'waiting' }),
    },
    clickBufferRows: metricIn(text, 'lnk_clicks_buffered_rows'),
    redirects: metricIn(text, 'lnk_redirects_total', { outcome: 'redirect' }),
    clicksWritten: metricIn(text, 'lnk_clicks_written_total'),
    serverErrors: serverErrors + (metricIn(text, 'lnk_redirects_total', { outcome: 'error' }) ?? 0),
    answered: api === null && redirectsAll === null ? null : (api ?? 0) + (redirectsAll ?? 0),
  };
}

/**
 * Whether a series keeps growing after warm-up: the median of its last quarter against the median of its
 * first quarter (both after warm-up). Growth beyond `tolerance` (a share, and at least `floor` in the
 * series' unit) is a leak until shown otherwise. The slope is a least-squares fit, per hour, for the reader.
 */
export function growthOf(
  points: { t: number; v: number | null }[],
  warmUpSeconds: number,
  tolerance = 0.1,
  floor = 16,
): { first: number; last: number; growth: number; slopePerHour: number; keepsGrowing: boolean } | null {
  const kept = points.filter((p): p is { t: number; v: number } => p.t >= warmUpSeconds && p.v !== null);
  if (kept.length < 8) return null;
  const quarter = Math.max(2, Math.floor(kept.length / 4));
  const mid = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const m = sorted.length >> 1;
    return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  };
  const first = mid(kept.slice(0, quarter).map((p) => p.v));
  const last = mid(kept.slice(-quarter).map((p) => p.v));
  const n = kept.length;
  const meanT = kept.reduce((s, p) => s + p.t, 0) / n;
  const meanV = kept.reduce((s, p) => s + p.v, 0) / n;
  const covariance = kept.reduce((s, p) => s + (p.t - meanT) * (p.v - meanV), 0);
  const variance = kept.reduce((s, p) => s + (p.t - meanT) ** 2, 0);
  const slopePerHour = variance ? (covariance / variance) * 3600 : 0;
  const growth = last - first;
  return {
    first: +first.toFixed(1),
    last: +last.toFixed(1),
    growth: +growth.toFixed(1),
    slopePerHour: +slopePerHour.toFixed(1),
    keepsGrowing: growth > Math.max(floor, first * tolerance),
  };
}

export interface PlotPanel {
  title: string;
  unit: string;
  lines: { label: string; color: string; points: { t: number; v: number | null }[] }[];
  /** A horizontal line drawn across the panel (a bar, such as 50 ms of event-loop delay). */
  limit?: number;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Panels stacked one above the other, time on the x axis; a dashed line marks where warm-up ends. */
export function plotSvg(title: string, panels: PlotPanel[], warmUpSeconds: number): string {
  const width = 900;
  const panelHeight = 150;
  const left = 70;
  const right = 150;
  const top = 40;
  const gap = 40;
  const height = top + panels.length * (panelHeight + gap);
  const allT = panels.flatMap((p) => p.lines.flatMap((l) => l.points.map((pt) => pt.t)));
  const maxT = Math.max(1, ...allT);
  const x = (t: number) => left + ((width - left - right) * t) / maxT;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  panels.forEach((panel, index) => {
    const y0 = top + index * (panelHeight + gap) + 20;
    const values = panel.lines.flatMap((l) => l.points.map((p) => p.v).filter((v): v is number => v !== null));
    const maxV = Math.max(1e-9, panel.limit ?? 0, ...values) * 1.1;
    const y = (v: number) => y0 + panelHeight - (panelHeight * v) / maxV;
    parts.push(`<text x="${left}" y="${y0 - 6}" font-weight="bold">${escapeXml(`${panel.title} (${panel.unit})`)}</text>`);
    parts.push(`<rect x="${left}" y="${y0}" width="${width - left - right}" height="${panelHeight}" fill="none" stroke="#999"/>`);
    for (const fraction of [0, 0.5, 1]) {
      const v = maxV * fraction;
      parts.push(`<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" fill="#555">${+v.toPrecision(3)}</text>`);
    }
    parts.push(
      `<line x1="${x(warmUpSeconds)}" y1="${y0}" x2="${x(warmUpSeconds)}" y2="${y0 + panelHeight}" stroke="#bbb" stroke-dasharray="4 4"/>`,
    );
    if (panel.limit !== undefined)
      parts.push(
        `<line x1="${left}" y1="${y(panel.limit)}" x2="${width - right}" y2="${y(panel.limit)}" stroke="#d33" stroke-dasharray="6 3"/>`,
      );
    panel.lines.forEach((line, i) => {
      const coords = line.points.filter((p) => p.v !== null).map((p) => `${x(p.t).toFixed(1)},${y(p.v as number).toFixed(1)}`);
      if (coords.length) parts.push(`<polyline fill="none" stroke="${line.color}" stroke-width="1.5" points="${coords.join(' ')}"/>`);
      parts.push(`<text x="${width - right + 10}" y="${y0 + 14 + i * 16}" fill="${line.color}">${escapeXml(line.label)}</text>`);
    });
    parts.push(`<text x="${width - right}" y="${y0 + panelHeight + 14}" text-anchor="end" fill="#555">${Math.round(maxT)} s</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
