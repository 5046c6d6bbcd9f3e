import type { ComponentType } from 'react';
import { CalendarPage } from './pages/CalendarPage';
import { DashboardPage } from './pages/DashboardPage';
import { ImportPage } from './pages/ImportPage';
import { MonthPage } from './pages/MonthPage';
import { PortfolioPage } from './pages/portfolio/PortfolioPage';
import { StatisticsPage } from './pages/StatisticsPage';
import { SymbolPage } from './pages/SymbolPage';
import { SymbolsPage } from './pages/SymbolsPage';
import { TagsPage } from './pages/TagsPage';
import { TimeframePage } from './pages/TimeframePage';
import { TradesPage } from './pages/TradesPage';

export interface Route {
  /** Also answered by the service with the app (apps/api/src/web/web-app.routes.ts lists the same). */
  pattern: string;
  page: ComponentType<{ params: Record<string, string> }>;
}

export const ROUTES: readonly Route[] = [
  { pattern: '/', page: DashboardPage },
  { pattern: '/calendar', page: CalendarPage },
  { pattern: '/month/:month', page: MonthPage },
  { pattern: '/symbols', page: SymbolsPage },
  { pattern: '/symbols/:symbol', page: SymbolPage },
  { pattern: '/timeframe', page: TimeframePage },
  { pattern: '/statistics', page: StatisticsPage },
  { pattern: '/trades', page: TradesPage },
  { pattern: '/tags', page: TagsPage },
  { pattern: '/import', page: ImportPage },
  { pattern: '/portfolio', page: PortfolioPage },
];

/** The main navigation: label and the path each section starts at. */
export const NAVIGATION = [
  { to: '/', label: 'Dashboard', section: '/' },
  { to: '/calendar', label: 'Calendar', section: '/calendar' },
  { to: '/timeframe', label: 'Timeframe', section: '/timeframe' },
  { to: '/statistics', label: 'Statistics', section: '/statistics' },
  { to: '/trades', label: 'Trades', section: '/trades' },
  { to: '/tags', label: 'Tags', section: '/tags' },
  { to: '/symbols', label: 'Symbols', section: '/symbols' },
  { to: '/portfolio', label: 'Portfolio', section: '/portfolio' },
  { to: '/import', label: 'Import', section: '/import' },
] as const;

/** Which navigation entry a path belongs to (a month page belongs to the calendar). */
export function sectionOf(pathname: string): string {
  if (pathname.startsWith('/month/')) return '/calendar';
  const match = NAVIGATION.find((entry) => entry.section !== '/' && (pathname === entry.section || pathname.startsWith(`${entry.section}/`)));
  return match?.section ?? (pathname === '/' ? '/' : '');
}
