/** scan: positions in a parsed file, as diagnostics give them (1-based). */
import type { ts } from "@ts-morph/common";

/** 1-based line and column of `pos` in `sourceFile`. */
export function positionOf(
  sourceFile: ts.SourceFile,
  pos: number,
): { file: string; line: number; column: number } {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(pos);
  return { file: sourceFile.fileName, line: line + 1, column: character + 1 };
}

/** Position of a node's first token (after its JSDoc and trivia). */
export function nodePosition(node: ts.Node) {
  const sourceFile = node.getSourceFile();
  return positionOf(sourceFile, node.getStart(sourceFile));
}
