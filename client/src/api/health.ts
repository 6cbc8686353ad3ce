import { apiGet } from './http';

/** True when GET /api/health answers {"status":"success","data":{"status":"ok"}}. */
export async function checkHealth(signal?: AbortSignal): Promise<boolean> {
  try {
    const data = await apiGet<unknown>('/health', { signal });
    return typeof data === 'object' && data !== null && (data as { status?: unknown }).status === 'ok';
  } catch {
    return false;
  }
}
