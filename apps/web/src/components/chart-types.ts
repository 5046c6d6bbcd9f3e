export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** A fixed colour, or green/red by each value's sign. */
  color?: string;
  colorBySign?: boolean;
  fill?: boolean;
  /** A line that holds each value until the next point (a running total that changes on given days). */
  stepped?: boolean;
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
  /** `labels` are days (YYYY-MM-DD) placed in time: a gap of a month looks like a month. */
  timeAxis?: boolean;
  /** The values are counts: the axis ticks whole numbers only. */
  counts?: boolean;
}

export const GAIN = '#1a7f37';
export const LOSS = '#c62828';
export const ACCENT = '#1f5fbf';
export const MUTED = '#8792a8';
