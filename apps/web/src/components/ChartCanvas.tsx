import { useEffect, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { GAIN, LOSS, type ChartProps } from './chart-types';

// Chart.js, with only the parts the pages use (keeps the bundle small). Loaded lazily by Chart.tsx.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend, Filler);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#4a5468';

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
const dayText = (value: number) => new Date(value * DAY_MS).toISOString().slice(0, 10);
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** Ticks name days over a few months (else two ticks would both read "Apr 2024"), months over longer spans. */
const tickFormat = (span: number) => (span <= 200 ? monthDay : monthYear);

function configuration(props: ChartProps): ChartConfiguration {
  const { kind, labels, series, format, axisFormat, onSelect, timeAxis, counts } = props;
  const xs = timeAxis ? labels.map(dayNumber) : [];
  return {
    type: kind,
    data: {
      labels: timeAxis ? undefined : labels,
      datasets: series.map((entry) => {
        const colors = entry.colorBySign ? entry.values.map((value) => ((value ?? 0) < 0 ? LOSS : GAIN)) : (entry.color ?? '#1f5fbf');
        return {
          label: entry.label,
          data: timeAxis ? entry.values.map((y, index) => ({ x: xs[index], y })) : entry.values,
          backgroundColor: kind === 'line' ? (entry.fill ? `${entry.color ?? '#1f5fbf'}22` : entry.color) : colors,
          borderColor: colors,
          borderWidth: kind === 'line' ? 2 : 0,
          borderRadius: kind === 'bar' ? 3 : 0,
          pointRadius: kind === 'line' ? (entry.values.length > 60 ? 0 : 2.5) : undefined,
          fill: entry.fill ? 'origin' : false,
          tension: entry.stepped ? 0 : 0.15,
          // 'before' in Chart.js draws level to the next point, then the step: a value holds until the next day changes it.
          stepped: entry.stepped ? ('before' as const) : false,
          spanGaps: true,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      onClick: onSelect
        ? (_event, elements) => {
            if (elements.length > 0) onSelect(elements[0].index);
          }
        : undefined,
      plugins: {
        legend: { display: series.length > 1, position: 'bottom' },
        tooltip: {
          callbacks: {
            title: timeAxis ? (items) => (items.length > 0 ? dayText(Number(items[0].parsed.x)) : '') : undefined,
            label: (item) => `${item.dataset.label ?? ''}: ${format(timeAxis ? Number(item.parsed.y) : Number(item.raw))}`,
          },
        },
      },
      scales: {
        x: timeAxis
          ? {
              type: 'linear',
              grid: { display: false },
              min: xs[0],
              max: xs.at(-1),
              ticks: { maxRotation: 0, autoSkipPadding: 16, callback: (value) => tickFormat(xs.at(-1)! - xs[0]).format(new Date(Number(value) * DAY_MS)) },
            }
          : { grid: { display: false }, ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 8 } },
        y: {
          grid: { color: '#e6e9ef' },
          ticks: { precision: counts ? 0 : undefined, callback: (value) => (axisFormat ?? format)(Number(value)) },
        },
      },
    },
  };
}

export default function ChartCanvas(props: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  const latest = useRef(props);
  latest.current = props;
  // Rebuilt when what it shows changes (not on every render of the page); charts here are small.
  const signature = JSON.stringify([props.kind, props.labels, props.series, props.description]);

  useEffect(() => {
    if (canvas.current === null) return;
    chart.current = new Chart(canvas.current, configuration(latest.current));
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [signature]);

  return (
    <div className="chart" style={{ height: props.height ?? 260 }}>
      <canvas ref={canvas} role="img" aria-label={props.description}>
        {props.description}
      </canvas>
    </div>
  );
}
