/** The cloud this hub is linked to (`null`: none, so only the local sign-in), as the hub tells its app. */
export async function linkedCloud(): Promise<string | null> {
  const answer = await fetch('/home-cloud.json', { cache: 'no-store' });
  if (!answer.ok) return null;
  const { url } = (await answer.json()) as { url: string | null };
  return url;
}
