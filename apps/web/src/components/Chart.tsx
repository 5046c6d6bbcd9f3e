import { lazy, Suspense } from 'react';
import type { ChartProps } from './chart-types';

// Chart.js is loaded on first use, in its own file, so the first page paints without it.
const ChartCanvas = lazy(() => import('./ChartCanvas'));

export function Chart(props: ChartProps) {
  return (
    <Suspense fallback={<div className="chart chart-loading" style={{ height: props.height ?? 260 }} aria-hidden="true" />}>
      <ChartCanvas {...props} />
    </Suspense>
  );
}
