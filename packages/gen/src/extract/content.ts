/**
 * extract: whether a tool returns content (the runtime's `Image`, `Audio`, `EmbeddedResource`,
 * `ResourceLink`, `Text`, or an array of them) rather than a JSON value. The content types are
 * recognised by their brand property, whose type is the block's kind, as `Handle` and
 * `ToolContext` are; the kind goes into the definition, and the runtime reads the returned
 * value as that kind.
 */
import { ts } from "@ts-morph/common";
import { CONTENT_BRAND, type ContentKind } from "@zcp/runtime/definition";

/** What a return type says: no content, a content kind, or a mix the runtime cannot read. */
export type ReturnContent = null | ContentKind | { readonly refused: string };

/** The content a tool whose (awaited) return type is `type` answers. */
export function returnContent(checker: ts.TypeChecker, type: ts.Type): ReturnContent {
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type as ts.TypeReference);
    if (items.length > 0 && items.every((item) => brandKinds(checker, item).length > 0))
      return "content";
    return items.some((item) => mentionsContent(checker, item))
      ? {
          refused:
            "an array that mixes content blocks and JSON values (make each item a block: text(…))",
        }
      : null;
  }
  const kinds = brandKinds(checker, type);
  if (kinds.length === 1) return kinds[0]!;
  if (kinds.length > 1)
    return { refused: "one of several content types (return an array: Content[])" };
  return mentionsContent(checker, type)
    ? {
        refused:
          "a content type in a union with other values (return one content type, or Content[])",
      }
    : null;
}

/** The kinds a type's brand allows: one for `Image`, all five for `Content`; none without a brand. */
function brandKinds(checker: ts.TypeChecker, type: ts.Type): ContentKind[] {
  const brand = checker.getPropertyOfType(type, CONTENT_BRAND);
  if (!brand) return [];
  const kind = checker.getTypeOfSymbol(brand);
  return (kind.isUnion() ? kind.types : [kind])
    .filter((member) => member.isStringLiteral())
    .map((member) => (member as ts.StringLiteralType).value as ContentKind);
}

/** Whether a union has a content type among its members. */
function mentionsContent(checker: ts.TypeChecker, type: ts.Type): boolean {
  return type.isUnion() && type.types.some((member) => brandKinds(checker, member).length > 0);
}
