/**
 * extract: reading JSDoc (descriptions and tags), normalized to plain text.
 */
import { ts } from "ts-morph";

export interface Tag {
  readonly name: string;
  /** The tag's text with surrounding white space trimmed ("" when it has none). */
  readonly text: string;
  readonly node: ts.JSDocTag;
}

/** The JSDoc blocks written directly on `node` (not inherited from a parent). */
export function ownDocs(node: ts.Node): readonly ts.JSDoc[] {
  return (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
}

/** Description text of a JSDoc block: paragraphs kept, lines inside a paragraph joined. */
export function docText(doc: ts.JSDoc | undefined): string {
  return normalizeText(ts.getTextOfJSDocComment(doc?.comment) ?? "");
}

export function tagsOf(doc: ts.JSDoc | undefined): Tag[] {
  return (doc?.tags ?? []).map((node) => ({ name: node.tagName.text, text: tagText(node), node }));
}

function tagText(tag: ts.JSDocTag): string {
  // `@type integer` parses as a type tag whose "comment" is empty and whose type is the word.
  if (ts.isJSDocTypeTag(tag)) return tag.typeExpression.type.getText().trim();
  let text = ts.getTextOfJSDocComment(tag.comment) ?? "";
  if (ts.isJSDocParameterTag(tag)) text = text.replace(/^\s*-\s*/, "");
  return text.trim();
}

/** Name of the parameter a `@param` tag documents (`opts.city` for nested names). */
export function paramTagName(tag: ts.JSDocTag): string | null {
  return ts.isJSDocParameterTag(tag) ? entityName(tag.name) : null;
}

function entityName(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${entityName(name.left)}.${name.right.text}`;
}

/** Collapses runs of spaces and single line breaks; keeps blank lines as paragraph breaks. */
function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, " ").trim())
    .filter((paragraph) => paragraph !== "")
    .join("\n\n");
}

/** Documentation text of a symbol (interfaces, enums, aliases, properties). */
export function symbolDoc(symbol: ts.Symbol | undefined): string {
  const doc = symbol?.declarations?.map((d) => ownDocs(d).at(-1)).find((d) => d !== undefined);
  return docText(doc);
}
