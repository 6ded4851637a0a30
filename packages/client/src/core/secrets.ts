const REDACTED = '[redacted]';

/** Patterns that carry a secret whatever its value: credentials in headers, forms and JSON. */
const patterns: RegExp[] = [
  /(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /((?:access_token|refresh_token|client_secret|password|old_password|code_verifier|token)=)[^&\s"']+/gi,
  /("(?:access_token|refresh_token|client_secret|password|old_password|code_verifier|token)"\s*:\s*")[^"]*"/gi,
];

/**
 * The secrets a client knows (tokens, client secret, passwords), so that none of them ever appears in an
 * error message or a debug line, whatever text the server or the network stack produced.
 */
export class Secrets {
  private readonly values = new Set<string>();

  add(...values: (string | null | undefined)[]): void {
    for (const value of values) if (typeof value === 'string' && value.length >= 4) this.values.add(value);
  }

  redact(text: string): string {
    let result = text;
    // Longest first, so a secret containing another is replaced whole.
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) result = result.split(value).join(REDACTED);
    for (const pattern of patterns) {
      result = result.replace(pattern, (match, prefix?: string) =>
        prefix && !/^(Bearer|Basic)$/i.test(prefix)
          ? `${prefix}${REDACTED}${match.endsWith('"') ? '"' : ''}`
          : `${prefix ?? ''} ${REDACTED}`.trim(),
      );
    }
    return result;
  }
}
