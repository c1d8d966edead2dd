import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

// Only the pieces these two charts use, so the lazily loaded chunk stays small.
Chart.register(LineController, LineElement, PointElement, BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const ACCENT = '#3b5bdb';

/**
 * A chart drawn on a canvas, described for screen readers by `label`; the numbers are in the table the
 * page puts beside it, so the canvas is an image with a summary, not the only way to read them.
 */
function ChartCanvas({ kind, labels, values, label }: { kind: 'line' | 'bar'; labels: string[]; values: number[]; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: kind,
      data: {
        labels,
        datasets: [
          {
            label: 'Visits',
            data: values,
            borderColor: ACCENT,
            backgroundColor: kind === 'bar' ? ACCENT : 'rgba(59, 91, 219, 0.15)',
            fill: kind === 'line',
            tension: 0.2,
          },
        ],
      },
      options: {
        indexAxis: kind === 'bar' ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { [kind === 'bar' ? 'x' : 'y']: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [kind, labels, values]);
  return (
    <div className="chart-canvas">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

export function VisitsOverTime({ labels, values }: { labels: string[]; values: number[] }) {
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <ChartCanvas kind="line" labels={labels} values={values} label={`Visits over time: ${total} in all, shown in the table beside it`} />
  );
}

export function Breakdown({ title, labels, values }: { title: string; labels: string[]; values: number[] }) {
  return <ChartCanvas kind="bar" labels={labels} values={values} label={`${title}: shown in the table beside it`} />;
}
