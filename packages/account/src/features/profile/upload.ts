import { type CloudAPI, findOperation } from '@hearth/client/browser';
import { prepareRequest } from '@hearth/contract/client';

/** Uploads the avatar (`cloud.uploadAvatar`, multipart field `avatar`) through the client, reporting progress. */
export async function uploadAvatar(
  cloud: CloudAPI,
  userId: string,
  image: Blob,
  onProgress: (fraction: number) => void,
): Promise<{ medium: string; large: string }> {
  const request = prepareRequest(findOperation('cloud', 'cloud', 'uploadAvatar'), { id: userId });
  const form = new FormData();
  form.append('avatar', image, 'avatar.png');
  return (await cloud.upload(request, form, onProgress)) as { medium: string; large: string };
}
