import { z } from 'zod';
import { apiClient } from './api-client.ts';

/**
 * Downloads a CSV of the API (grades, audit trail). The API needs the bearer token, which a plain
 * link cannot send, so the file is fetched through the API client (a CSV is not JSON, so the client
 * hands back its text) and saved from a temporary object URL.
 */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  const csv = await apiClient.get(path, z.string());
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
