/**
 * scan: an input's text as the run sees it, and its hash. Files are decoded as TypeScript's compiler
 * host decodes them (a byte order mark selects UTF-16 or is dropped, else UTF-8), so that the hash
 * of what the pipeline read (a program file's text, the text of the `@tool` check) and the hash of
 * the file on disk agree when the file has not changed. Loads no TypeScript: the no-change fast
 * path and the watcher (`cli/`) import this module, not the entry, to hash files without it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";

/** The file's text as `ts.sys.readFile` returns it; null when it cannot be read. */
export function readSourceText(file: string): string | null {
  let buffer: Buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch {
    return null;
  }
  const length = buffer.length;
  if (length >= 2 && buffer[0] === 0xfe && buffer[1] === 0xff) {
    // UTF-16 big endian: swap each pair, then read as little endian (what TypeScript does).
    for (let i = 0; i + 1 < length; i += 2) {
      const byte = buffer[i]!;
      buffer[i] = buffer[i + 1]!;
      buffer[i + 1] = byte;
    }
    return buffer.toString("utf16le", 2);
  }
  if (length >= 2 && buffer[0] === 0xff && buffer[1] === 0xfe) return buffer.toString("utf16le", 2);
  if (length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf)
    return buffer.toString("utf8", 3);
  return buffer.toString("utf8");
}

/** SHA-256 (hex) of a text. */
export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The hash of the file's text as the run would read it now; null when it cannot be read. */
export function hashSourceFile(file: string): string | null {
  const text = readSourceText(file);
  return text === null ? null : hashText(text);
}
