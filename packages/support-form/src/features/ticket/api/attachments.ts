import { APIError } from '@hearth/client/browser';

export interface UploadAnswer {
  status: number;
  statusText: string;
  /** The decoded JSON answer, or `undefined` when it was not JSON. */
  body: unknown;
}

/**
 * Sends one file as the raw request body (`helpdesk.uploadAttachment`, `POST /api/helpdesk/attachment`) to `url`
 * and answers whatever the server answered. XMLHttpRequest because it reports upload progress, which fetch does
 * not; everything else about the call (address, token, refresh, errors) is the client library's.
 */
export function sendFile(
  url: string,
  accessToken: string | undefined,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      resolve({ status: xhr.status, statusText: xhr.statusText, body });
    };
    xhr.onerror = () => reject(new APIError('Network error', 0, 'network_error'));
    xhr.send(file);
  });
}
