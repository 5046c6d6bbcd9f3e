export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** A fixed colour, or green/red by each value's sign. */
  color?: string;
  colorBySign?: boolean;
  fill?: boolean;
}

export interface ChartProps {
  kind: 'bar' | 'line';
  labels: string[];
  series: ChartSeries[];
  /** What the chart shows, for screen readers (the data is also in a table on the page). */
  description: string;
  /** Tooltip and axis numbers. */
  format: (value: number) => string;
  /** Axis ticks (shorter); defaults to `format`. */
  axisFormat?: (value: number) => string;
  onSelect?: (index: number) => void;
  height?: number;
}

export const GAIN = '#1a7f37';
export const LOSS = '#c62828';
export const ACCENT = '#1f5fbf';
export const MUTED = '#8792a8';
