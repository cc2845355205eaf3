import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { InputError, lineOfOffset } from '../model/index.js';

/**
 * XML for the adapters that read it (JUnit, Catch2): one parser set-up, so
 * both validate first (fast-xml-parser's parse accepts broken XML silently),
 * call a cut-off file truncated, and keep each element's start offset for
 * messages that name a line. Attributes are `@name` strings, never numbers:
 * the adapter decides what a value means.
 */
export type XmlNode = Record<string | symbol, unknown>;

const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** The document's root object; `arrays` are the element names that always come as lists. */
export function parseXmlDocument(text: string, path: string, options: { arrays: readonly string[]; expected?: string }): XmlNode {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const truncated = /closed|Unclosed|unexpected end/i.test(valid.err.msg) ? ' (the file looks truncated)' : '';
    throw new InputError(path, `invalid XML: ${valid.err.msg}${truncated}${options.expected ? `; expected ${options.expected}` : ''}`, valid.err.line);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    captureMetaData: true,
    parseAttributeValue: false,
    parseTagValue: false,
    isArray: (name) => options.arrays.includes(name),
  });
  try {
    return parser.parse(text) as XmlNode;
  } catch (error) {
    // The validator and the parser disagree on a few broken forms (an unclosed `<?xml …` processing instruction): still the file's fault.
    throw new InputError(path, `invalid XML: ${(error as Error).message}${options.expected ? `; expected ${options.expected}` : ''}`);
  }
}

/** A child value as a list of nodes; bare text (`<skipped/>`, `<failure>text</failure>`) becomes `{ '#text': … }`. */
export function asArray(value: unknown): XmlNode[] {
  if (Array.isArray(value)) return value.flatMap(asArray);
  if (typeof value === 'object' && value !== null) return [value as XmlNode];
  if (typeof value === 'string') return [{ '#text': value }];
  return [];
}

export function attr(node: XmlNode, name: string): string | undefined {
  const v = node[`@${name}`];
  return typeof v === 'string' ? v : undefined;
}

/** The 1-based line an element starts on, when the parser recorded it. */
export function lineOf(node: XmlNode, text: string): number | undefined {
  const meta = node[META] as { startIndex?: number } | undefined;
  return meta?.startIndex !== undefined ? lineOfOffset(text, meta.startIndex) : undefined;
}
