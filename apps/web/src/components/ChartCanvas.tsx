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

function configuration(props: ChartProps): ChartConfiguration {
  const { kind, labels, series, format, axisFormat, onSelect } = props;
  return {
    type: kind,
    data: {
      labels,
      datasets: series.map((entry) => {
        const colors = entry.colorBySign ? entry.values.map((value) => ((value ?? 0) < 0 ? LOSS : GAIN)) : (entry.color ?? '#1f5fbf');
        return {
          label: entry.label,
          data: entry.values,
          backgroundColor: kind === 'line' ? (entry.fill ? `${entry.color ?? '#1f5fbf'}22` : entry.color) : colors,
          borderColor: colors,
          borderWidth: kind === 'line' ? 2 : 0,
          borderRadius: kind === 'bar' ? 3 : 0,
          pointRadius: kind === 'line' ? (entry.values.length > 60 ? 0 : 2.5) : undefined,
          fill: entry.fill ? 'origin' : false,
          tension: 0.15,
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
            label: (item) => `${item.dataset.label ?? ''}: ${format(Number(item.raw))}`,
          },
        },
      },
      scales: {
        x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 8 } },
        y: {
          grid: { color: '#e6e9ef' },
          ticks: { callback: (value) => (axisFormat ?? format)(Number(value)) },
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
