import { ICONS_LIMITS, invalidParameter } from '@hearth/contract';
import { SaxesParser, type SaxesTagNS } from 'saxes';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Elements that run code or embed other documents: an icon carrying one is refused. */
const FORBIDDEN_ELEMENTS = new Set(['script', 'foreignobject', 'handler', 'listener', 'iframe', 'embed', 'object']);
const ANIMATIONS = new Set(['animate', 'set', 'animatetransform', 'animatemotion', 'animatecolor']);
/** Embedded raster images are the one outside-free reference allowed besides `#fragment`s. */
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;
const MAX_ELEMENTS = 10_000;
const MAX_DEPTH = 64;

const refuse = (reason: string) => invalidParameter('svg', reason);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) =>
  escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

/** What a browser would read from a value once whitespace is ignored (XML allows no other control characters). */
const squeezed = (value: string) => value.replace(/\s+/g, '').toLowerCase();

/** Refuses CSS (a `style` attribute or element, or a paint value) that loads or runs anything. */
function checkCss(css: string, where: string): void {
  // Escapes could spell `url(` or `@import` in a way the checks below would not see; icons need none.
  if (css.includes('\\')) throw refuse(`${where} carries CSS escapes`);
  const text = squeezed(css);
  if (text.includes('@import')) throw refuse(`${where} imports a stylesheet`);
  if (/(^|[^a-z-])(-webkit-)?(image-set|image|cross-fade|element|src)\(/.test(text))
    throw refuse(`${where} loads images through CSS functions`);
  if (text.includes('expression(')) throw refuse(`${where} carries a CSS expression`);
  for (const match of text.matchAll(/url\(([^)]*)\)/g)) {
    const target = (match[1] ?? '').replace(/^['"]|['"]$/g, '');
    if (!target.startsWith('#') && !EMBEDDED_IMAGE.test(target))
      throw refuse(`${where} references something outside the icon (${target.slice(0, 80)})`);
  }
}

/**
 * Checks an uploaded or fetched SVG and answers it rewritten in a canonical form: a well-formed XML document
 * whose root is `<svg>` in the SVG namespace, without DOCTYPE (no entities), scripts, foreign objects, event
 * handler attributes, `javascript:` values or references to anything outside the icon. Comments, processing
 * instructions and elements of other namespaces (editor metadata) are dropped. The root's `width` and `height`
 * are removed (a `viewBox` is added from them when missing) so {@link sized} can set the size asked for.
 * Throws `invalid_parameter` naming the first problem.
 */
export function checkSvg(source: string): string {
  if (Buffer.byteLength(source, 'utf8') > ICONS_LIMITS.maxSvgBytes)
    throw refuse(`The icon is larger than ${ICONS_LIMITS.maxSvgBytes / 1024} KB`);
  const parser = new SaxesParser({ xmlns: true, position: false });
  const out: string[] = [];
  let depth = 0;
  let skipping = 0; // depth inside a dropped foreign element
  let elements = 0;
  let style: string | null = null; // the text of the <style> element being read
  let styleDepth = 0;
  let usesXlink = false;
  let rootSeen = false;
  let rootIndex = -1;
  let failure: Error | null = null;

  parser.on('doctype', () => {
    throw refuse('An icon must not carry a DOCTYPE');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    depth += 1;
    if (depth > MAX_DEPTH) throw refuse(`The icon nests deeper than ${MAX_DEPTH} elements`);
    elements += 1;
    if (elements > MAX_ELEMENTS) throw refuse(`The icon has more than ${MAX_ELEMENTS} elements`);
    const local = tag.local.toLowerCase();
    if (FORBIDDEN_ELEMENTS.has(local)) throw refuse(`<${tag.name}> elements are not allowed in an icon`);
    if (!rootSeen) {
      rootSeen = true;
      if (tag.local !== 'svg' || tag.uri !== SVG_NS) throw refuse('The root element must be <svg> in the SVG namespace');
    }
    if (skipping > 0 || tag.uri !== SVG_NS) {
      skipping += 1;
      return;
    }
    const attributes: string[] = [];
    const root = depth === 1;
    let width: string | undefined;
    let height: string | undefined;
    let hasViewBox = false;
    for (const attribute of Object.values(tag.attributes)) {
      const { prefix, local: name, uri, value } = attribute;
      if (prefix === 'xmlns' || (prefix === '' && name === 'xmlns')) continue;
      if (/^on/i.test(name)) throw refuse(`Event handler attributes (${attribute.name}) are not allowed in an icon`);
      if (squeezed(value).includes('javascript:') || squeezed(value).includes('vbscript:'))
        throw refuse(`The ${attribute.name} attribute carries a script address`);
      let written: string;
      if (uri === '') written = name;
      else if (uri === XLINK_NS) {
        written = `xlink:${name}`;
        usesXlink = true;
      } else if (uri === XML_NS) written = `xml:${name}`;
      else continue; // editor metadata of other namespaces
      if (name === 'href' && !value.trim().startsWith('#') && !(local === 'image' && EMBEDDED_IMAGE.test(value.trim())))
        throw refuse(`<${tag.name}> references something outside the icon (${value.slice(0, 80)})`);
      if (ANIMATIONS.has(local) && name === 'attributeName' && /^(xlink:)?href$|^on/i.test(value.trim()))
        throw refuse(`<${tag.name}> may not animate ${value.trim()}`);
      if (name === 'style' || value.includes('url(')) checkCss(value, `The ${attribute.name} attribute`);
      if (root && uri === '' && name === 'width') width = value;
      else if (root && uri === '' && name === 'height') height = value;
      else {
        if (root && name === 'viewBox') hasViewBox = true;
        attributes.push(` ${written}="${escapeAttribute(value)}"`);
      }
    }
    if (root) {
      const number = (text: string | undefined) =>
        text && /^\s*\d+(\.\d+)?\s*(px)?\s*$/.test(text) ? Number.parseFloat(text) : NaN;
      const w = number(width);
      const h = number(height);
      if (!hasViewBox && w > 0 && h > 0) attributes.push(` viewBox="0 0 ${w} ${h}"`);
      out.push(`<svg xmlns="${SVG_NS}"`);
      rootIndex = out.length; // the xlink namespace is declared here once the whole document is read
      out.push('');
    } else out.push(`<${tag.local}`);
    out.push(...attributes, tag.isSelfClosing ? '/>' : '>');
    if (local === 'style' && style === null) {
      style = '';
      styleDepth = depth;
    }
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    depth -= 1;
    if (skipping > 0) {
      skipping -= 1;
      return;
    }
    if (style !== null && depth + 1 === styleDepth) {
      // Checked whole: text and CDATA sections together could spell what each alone does not.
      checkCss(style, 'A <style> element');
      style = null;
    }
    if (!tag.isSelfClosing) out.push(`</${tag.local}>`);
  });
  const text = (value: string) => {
    if (skipping > 0 || depth === 0) return;
    if (style !== null) style += value;
    out.push(escapeText(value));
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('error', (error) => {
    failure ??= refuse(`The icon is not well-formed XML: ${error.message}`);
    throw failure;
  });
  try {
    parser.write(source).close();
  } catch (error) {
    if (failure) throw failure;
    throw error;
  }
  if (!rootSeen) throw refuse('The icon has no <svg> element');
  if (usesXlink) out[rootIndex] = ` xmlns:xlink="${XLINK_NS}"`;
  return out.join('');
}

/** The stored (canonical) icon with the width and height asked for. */
export function sized(svg: string, size: number): string {
  return svg.replace(/^<svg /, `<svg width="${size}" height="${size}" `);
}
