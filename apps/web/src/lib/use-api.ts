import { useCallback, useEffect, useRef, useState } from 'react';
import { useAccountScope } from '../accounts';
import { ApiError, getJson } from '../api/client';

export type Loadable<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'error'; data?: undefined; error: ApiError | Error }
  | { status: 'ready'; data: T; error?: undefined };

/**
 * GETs `path` (null: nothing to load yet) and re-fetches when it changes or on `reload()`. While a new
 * path loads, the previous data stays visible (`stale`), so pages don't flash blank between months.
 * A report's path is narrowed to the account the top bar shows (`useAccountScope`), and fetched again
 * when another is chosen.
 */
export function useApi<T>(requested: string | null): Loadable<T> & { reload: () => void; stale: boolean } {
  const { scoped } = useAccountScope();
  const path = requested === null ? null : scoped(requested);
  const [state, setState] = useState<Loadable<T>>({ status: 'loading' });
  const [stale, setStale] = useState(false);
  const [generation, setGeneration] = useState(0);
  const last = useRef<T | undefined>(undefined);

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    if (last.current === undefined) setState({ status: 'loading' });
    else setStale(true);
    getJson<T>(path, controller.signal).then(
      (data) => {
        last.current = data;
        setState({ status: 'ready', data });
        setStale(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) });
        setStale(false);
      },
    );
    return () => controller.abort();
  }, [path, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload, stale };
}

/** The page's title in the browser tab. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Trading journal`;
  }, [title]);
}
