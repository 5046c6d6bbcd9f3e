// The one way the app talks to the service: same-origin fetch, the session cookie travels by itself
// (HttpOnly), a 401 sends the browser to the login page, `{success:false, error}` becomes an ApiError.

export const LOGIN_PAGE = '/auth/login';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Where a 401 sends the browser; replaceable in tests. */
export const navigation = {
  toLogin(): void {
    window.location.assign(LOGIN_PAGE);
  },
};

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The message a person should read for a failed response. */
export function errorMessage(body: unknown, status: number): string {
  if (body !== null && typeof body === 'object') {
    const { error, message, detail } = body as { error?: unknown; message?: unknown; detail?: unknown };
    if (typeof error === 'string' && error !== '') return error;
    if (typeof message === 'string' && message !== '') return typeof detail === 'string' && detail !== '' ? `${message}: ${detail}` : message;
  }
  if (typeof body === 'string' && body !== '' && body.length < 300) return body;
  return `The service answered ${status}`;
}

/** What a person should read for a failure caught in the app (an ApiError's message, else the error's). */
export const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Checks an answer: 401 → login page; not ok or `success:false` → ApiError; otherwise the body. */
export async function checked<T>(response: Response): Promise<T> {
  const body = await readBody(response);
  if (response.status === 401) {
    navigation.toLogin();
    throw new ApiError('Your session has ended. Signing in again…', 401, body);
  }
  const failed = body !== null && typeof body === 'object' && (body as { success?: unknown }).success === false;
  if (!response.ok || failed) throw new ApiError(errorMessage(body, response.status), response.status, body);
  return body as T;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' }, signal });
  return checked<T>(response);
}

export async function sendJson<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return checked<T>(response);
}

export async function sendForm<T>(path: string, form: FormData): Promise<T> {
  const response = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' }, body: form });
  return checked<T>(response);
}

/** The file name of a `Content-Disposition: attachment; filename="…"` header. */
export function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : fallback;
}

/**
 * Downloads a file answer (the exports) through the page, so an error (e.g. "No trades found for this
 * date") is shown as a message instead of being saved as a file.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) {
    await checked(response);
  }
  const name = attachmentName(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
