/**
 * extract: reading JSDoc (descriptions and tags), normalized to plain text.
 */
import { ts } from "@ts-morph/common";

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

/**
 * Description text of a JSDoc block: paragraphs kept, lines inside a paragraph joined. A
 * `@description` tag is the description when there is one (as TypeDoc reads it).
 */
export function docText(doc: ts.JSDoc | undefined): string {
  const tag = doc?.tags?.find((t) => t.tagName.text === "description");
  return normalizeText(ts.getTextOfJSDocComment((tag ?? doc)?.comment) ?? "");
}

/** The description and tags that document a declaration. */
export interface Doc {
  readonly description: string;
  readonly tags: readonly Tag[];
}

/**
 * The documentation of a property's declaration: its own JSDoc; for a constructor parameter
 * property (`constructor(public x: number)`), its `@param` text; for a property redeclared
 * without JSDoc in an interface or class, the documentation of the one it overrides.
 */
export function declarationDoc(checker: ts.TypeChecker, declaration: ts.Node): Doc | undefined {
  const own = ownDocs(declaration).at(-1);
  if (own) return { description: docText(own), tags: tagsOf(own) };
  if (
    ts.isParameter(declaration) &&
    ts.isParameterPropertyDeclaration(declaration, declaration.parent)
  ) {
    const tag = ts.getJSDocParameterTags(declaration)[0];
    return tag && { description: normalizeText(tagText(tag)), tags: [] };
  }
  return inheritedDoc(checker, declaration, new Set());
}

function inheritedDoc(
  checker: ts.TypeChecker,
  declaration: ts.Node,
  seen: Set<ts.Node>,
): Doc | undefined {
  const owner = declaration.parent;
  // Only an interface or class with a base has a property to inherit from: ask the checker for
  // the property's name only then (most properties are of types that extend nothing).
  if (
    !(ts.isInterfaceDeclaration(owner) || ts.isClassLike(owner)) ||
    !owner.heritageClauses?.length ||
    seen.has(owner)
  )
    return undefined;
  const name = ts.getNameOfDeclaration(declaration as ts.Declaration);
  const propertyName = name && checker.getSymbolAtLocation(name)?.getName();
  if (!propertyName) return undefined;
  seen.add(owner);
  for (const clause of owner.heritageClauses ?? []) {
    for (const base of clause.types) {
      const property = checker.getPropertyOfType(checker.getTypeAtLocation(base), propertyName);
      for (const inherited of property?.declarations ?? []) {
        const doc = ownDocs(inherited).at(-1);
        if (doc) return { description: docText(doc), tags: tagsOf(doc) };
        const deeper = inheritedDoc(checker, inherited, seen);
        if (deeper) return deeper;
      }
    }
  }
  return undefined;
}

export function tagsOf(doc: ts.JSDoc | undefined): Tag[] {
  return (doc?.tags ?? []).map((node) => ({ name: node.tagName.text, text: tagText(node), node }));
}

function tagText(tag: ts.JSDocTag): string {
  // `@type integer` parses as a type tag whose "comment" is empty and whose type is the word.
  if (ts.isJSDocTypeTag(tag)) return tag.typeExpression.type.getText().trim();
  let text = ts.getTextOfJSDocComment(tag.comment) ?? "";
  if (ts.isJSDocParameterTag(tag)) text = text.replace(/^\s*-\s*/, "");
  return commentEnds(text).trim();
}

// A comment cannot hold the two characters that end it, so JSDoc text writes them with a
// backslash (a glob `**\/*.ts`); the text a model reads has the backslash taken out.
function commentEnds(text: string): string {
  return text.includes("*\\/") ? text.replaceAll("*\\/", "*/") : text;
}

/** Name of the parameter a `@param` tag documents (`opts.city` for nested names). */
export function paramTagName(tag: ts.JSDocTag): string | null {
  return ts.isJSDocParameterTag(tag) ? entityName(tag.name) : null;
}

function entityName(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${entityName(name.left)}.${name.right.text}`;
}

/**
 * Collapses runs of spaces and single line breaks; keeps blank lines as paragraph breaks, and
 * the line break before a Markdown list item (`- a`, `* a`, `+ a`, `1. a`), which joined to the
 * line before would no longer read as a list.
 */
function normalizeText(written: string): string {
  const text = plainLinks(commentEnds(written));
  // Most texts are one line with single spaces: nothing to collapse or split, only the ends to trim.
  if (!/\s\s|[^\S ]/.test(text)) return text.trim();
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split(/\n(?=[ \t]*(?:[-*+]|\d+[.)])[ \t])/)
        .map((line) => line.replace(/\s+/g, " ").trim())
        .filter((line) => line !== "")
        .join("\n"),
    )
    .filter((paragraph) => paragraph !== "")
    .join("\n\n");
}

/** `{@link Target}`, `{@link Target | text}`, `{@link Target text}` (and `@linkcode`, `@linkplain`). */
const LINK = /\{@link(?:code|plain)?\s+([^\s|}]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g;

/**
 * Inline links as the text a reader sees: their text, else their target (`{@link Point}` is
 * `Point`); the model has no use for the markup, which TypeScript keeps in the comment's text.
 */
function plainLinks(text: string): string {
  return text.includes("{@link")
    ? text.replace(LINK, (_, target: string, label: string) => label.trim() || target)
    : text;
}

/** Documentation text of a symbol (interfaces, enums, aliases, properties). */
export function symbolDoc(symbol: ts.Symbol | undefined): string {
  const doc = symbol?.declarations?.map((d) => ownDocs(d).at(-1)).find((d) => d !== undefined);
  return docText(doc);
}
