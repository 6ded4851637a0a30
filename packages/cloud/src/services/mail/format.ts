import { escapeHtml } from '../../platform/html';

/** An http(s) address in running text; what ends a sentence after it is not part of it. */
const LINK = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'\]]/g;

/** `text` as HTML: escaped, with every http(s) address in it a link. */
export function linkifiedHtml(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const url = match[0];
    out += `${escapeHtml(text.slice(last, match.index))}<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

/**
 * A plain-text mail's paragraphs as HTML paragraphs with clickable links. The text is wrapped for a text reader,
 * so a paragraph's lines join into one flowing line (a phone then wraps it to its width); a line that starts a
 * list item ("- ", "• ", "1. ") keeps its own line. With `keepLines`, every line break stays (text someone
 * else wrote, whose line breaks may mean something).
 */
export function paragraphsHtml(text: string, keepLines = false): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const lines = paragraph.split('\n').map((line) => linkifiedHtml(line.trim()));
      const joined = lines.reduce(
        (out, line, i) => (i === 0 ? line : `${out}${keepLines || /^(-|•|\d+\.)\s/.test(line) ? '<br>' : ' '}${line}`),
        '',
      );
      return `<p>${joined}</p>`;
    })
    .join('\n');
}

const MAIL_STYLE =
  'font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;' +
  'max-width:36rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere';

/** A whole HTML mail around `inner`: Hearth's name on top, one readable column. */
export function mailDocument(subject: string, inner: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head><body style="${MAIL_STYLE}"><p style="font-weight:700;color:#9a3412;margin:0 0 1rem">Hearth</p>\n${inner}\n</body></html>`;
}

/** The HTML part of a mail written as text: the same words, links clickable. */
export const htmlFromText = (subject: string, text: string): string => mailDocument(subject, paragraphsHtml(text));

/** A formatted mail (`POST /cloud/mail/formatted`): optional logo, header and button around the body text. */
export function formattedMailHtml(input: {
  subject: string;
  body: string;
  logo?: { url?: string };
  header?: { title?: string; subtitle?: string };
  button?: { text?: string; url?: string };
}): string {
  const parts: string[] = [];
  if (input.logo?.url && /^https?:\/\//.test(input.logo.url))
    parts.push(`<p><img src="${escapeHtml(input.logo.url)}" alt="" height="48"></p>`);
  if (input.header?.title) parts.push(`<h1>${escapeHtml(input.header.title)}</h1>`);
  if (input.header?.subtitle) parts.push(`<p><strong>${escapeHtml(input.header.subtitle)}</strong></p>`);
  parts.push(paragraphsHtml(input.body, true));
  if (input.button?.text && input.button.url && /^https?:\/\//.test(input.button.url))
    parts.push(`<p><a href="${escapeHtml(input.button.url)}">${escapeHtml(input.button.text)}</a></p>`);
  return mailDocument(input.subject, parts.join('\n'));
}
