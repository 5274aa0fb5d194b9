/**
 * The compact, model-facing JSON of a call result: what a chat-completions tool message or an
 * MCP text block carries back to the model.
 *
 *     {"ok":true,"value":{"temp":22}}
 *     {"ok":true,"content":[{"type":"image","data":"iVBORw0KGgo…","mimeType":"image/png"}]}
 *     {"ok":true,"handle":"#T1","summary":"3 rows: sku, qty","meta":{"kind":"table","size":120,"ttl":"10m","count":3}}
 *     {"ok":true,"handle":"#T2","summary":"text, …","meta":{…,"lines":900,"chars":41000,"next":{"op":"view","offset":80}},"head":"…"}
 *     {"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing"}
 *
 * No white space, keys always in this order (meta: kind, size, ttl, then count, lines, chars and
 * next when known; the head last), so the
 * same result is always the same text: a prompt cache sees identical bytes.
 */
import type { CallResult, HandleMeta } from "../results/result.js";
import { compactJson } from "./json.js";

export interface EncodeOptions {
  /**
   * Escape every character outside printable ASCII as `\uXXXX`. Off by default: plain UTF-8 is
   * valid JSON that every model reads, and escaping costs tokens (one CJK character becomes six
   * ASCII ones). Turn it on for a transport that is not 8-bit clean.
   */
  readonly ascii?: boolean;
}

/**
 * Encodes a result as compact JSON. The value is written as `JSON.stringify` writes it (so it
 * must be JSON: the runtime has shaped it already); `undefined` is written as `null`.
 */
export function encodeResult(result: CallResult, options: EncodeOptions = {}): string {
  let text: string;
  if (!result.ok) {
    text = `{"ok":false,"error":${JSON.stringify(result.error)},"hint":${JSON.stringify(result.hint)}}`;
  } else if ("handle" in result) {
    text =
      `{"ok":true,"handle":${JSON.stringify(result.handle)},"summary":${JSON.stringify(result.summary)},` +
      `"meta":${encodeMeta(result.meta)}` +
      (result.head === undefined ? "}" : `,"head":${compactJson(result.head)}}`);
  } else if ("content" in result) {
    text = `{"ok":true,"content":${compactJson(result.content)}}`;
  } else {
    text = `{"ok":true,"value":${compactJson(result.value)}}`;
  }
  return options.ascii === true ? asciiOnly(text) : text;
}

function encodeMeta(meta: HandleMeta): string {
  const known = (key: "count" | "lines" | "chars" | "next") =>
    meta[key] === undefined ? "" : `,"${key}":${compactJson(meta[key])}`;
  return `{"kind":${JSON.stringify(meta.kind)},"size":${compactJson(meta.size)},"ttl":${JSON.stringify(meta.ttl)}${known("count")}${known("lines")}${known("chars")}${known("next")}}`;
}

/**
 * Escapes what is not printable ASCII. In JSON text such characters can only be inside strings
 * (and JSON.stringify has escaped lone surrogates already), so this keeps the JSON valid.
 */
function asciiOnly(json: string): string {
  return json.replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
