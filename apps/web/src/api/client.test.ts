import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, attachmentName, checked, errorMessage, getJson, navigation, sendJson } from './client';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('checked', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the body of a success', async () => {
    expect(await checked(json({ success: true, months: [] }))).toEqual({ success: true, months: [] });
  });

  it("turns {success:false, error} into an ApiError with the service's message and status", async () => {
    const error = await checked(json({ success: false, error: 'Symbol not found' }, 404)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Symbol not found');
    expect((error as ApiError).status).toBe(404);
  });

  it('a success:false with status 200 is still a failure', async () => {
    await expect(checked(json({ success: false, error: 'Finnhub API key not configured' }))).rejects.toThrow('Finnhub API key not configured');
  });

  it('401 goes to the login page', async () => {
    const toLogin = vi.spyOn(navigation, 'toLogin').mockImplementation(() => undefined);
    await expect(checked(json({ success: false, error: 'Authentication required', redirect_to_login: true }, 401))).rejects.toBeInstanceOf(ApiError);
    expect(toLogin).toHaveBeenCalledOnce();
  });

  it('reads messages of other shapes', () => {
    expect(errorMessage({ type: 'error', message: 'Both files must be CSV files' }, 400)).toBe('Both files must be CSV files');
    expect(errorMessage({ type: 'error', message: 'Both files must be CSV files', detail: 'statement.xlsx: not a .csv file' }, 400)).toBe(
      'Both files must be CSV files: statement.xlsx: not a .csv file',
    );
    expect(errorMessage('Bad Gateway', 502)).toBe('Bad Gateway');
    expect(errorMessage(null, 500)).toBe('The service answered 500');
  });
});

describe('requests', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('GET sends the cookie of this site only and asks for JSON', async () => {
    const fetchMock = vi.fn(async () => json({ success: true }));
    vi.stubGlobal('fetch', fetchMock);
    await getJson('/api/months');
    expect(fetchMock).toHaveBeenCalledWith('/api/months', expect.objectContaining({ credentials: 'same-origin' }));
  });

  it('PUT sends a JSON body', async () => {
    const fetchMock = vi.fn(async (_path: string, _init: RequestInit) => json({ success: true, profile: {} }));
    vi.stubGlobal('fetch', fetchMock);
    await sendJson('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' });
    const init = fetchMock.mock.calls[0][1];
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"brokerage_account":"XXXX-1234"}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });
});

describe('attachmentName', () => {
  it('reads the file name of a download', () => {
    expect(attachmentName('attachment; filename="trading-2024-05.xlsx"', 'x')).toBe('trading-2024-05.xlsx');
    expect(attachmentName("attachment; filename*=UTF-8''trading%202024.csv", 'x')).toBe('trading 2024.csv');
    expect(attachmentName(null, 'fallback.pdf')).toBe('fallback.pdf');
  });
});
