/**
 * Whether `zone` is an IANA time zone the runtime knows (its Intl time zone database). Hub and cloud check a zone
 * the same way: the cloud before it passes one on in a setup session, the hub before it keeps one as its own.
 */
export function isTimezone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
