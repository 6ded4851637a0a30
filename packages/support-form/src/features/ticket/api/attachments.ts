import { HttpError } from '../../../lib/http';

/**
 * Uploads one file as the raw request body (`POST /api/helpdesk/attachment?filename=&mimetype=`) and answers
 * its upload token. XMLHttpRequest because it reports upload progress.
 */
export function uploadAttachment(
  cloudUrl: string,
  token: string | null,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const query = new URLSearchParams({ filename: file.name, mimetype: file.type || 'application/octet-stream' });
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${cloudUrl}/api/helpdesk/attachment?${query}`);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText || '{}') as { token?: string; error_description?: string };
        if (xhr.status >= 200 && xhr.status < 300 && body.token) {
          onProgress(1);
          resolve(body.token);
        } else reject(new HttpError(xhr.status, body.error_description ?? `HTTP ${xhr.status}`));
      } catch {
        reject(new HttpError(xhr.status, `HTTP ${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new HttpError(0, 'Network error'));
    xhr.send(file);
  });
}
