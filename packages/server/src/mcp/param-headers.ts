/**
 * `Mcp-Param-{Name}` headers on 2026-07-28 `tools/call` requests over HTTP (SEP-2243; the spec's
 * streamable-http.mdx, "Custom Headers from Tool Parameters"). A tool whose MCP `inputSchema`
 * marks a parameter with `x-mcp-header: "Region"` has its clients mirror the argument into
 * `Mcp-Param-Region`, so that intermediaries route on it without reading the body; a server that
 * reads the body must then refuse a request whose header and body disagree (an intermediary may
 * have acted on the header while the tool acts on the body): HTTP 400, JSON-RPC `-32020`
 * (`HeaderMismatch`), the request's id echoed. The v2 SDK does this only for `McpServer`
 * products, and zcp's factory returns a low-level `Server`, so it is done here, on the request
 * before the SDK serves it.
 *
 * The declarations (`@zcp/runtime`'s `headerDeclarations`, which also keeps such a tool from
 * being called through `zcp_call_tool` or a `zcp_run` program, whose requests cannot carry its
 * headers): each `x-mcp-header` reached from the schema root through `properties` keys alone
 * whose value is an HTTP token (RFC 9110 `1*tchar`). An annotation anywhere else (under
 * `items`, `oneOf`, `$ref`, ...) names no single value and makes the tool invalid for clients,
 * which leave it out; it is not enforced. The declared type is not required to be one the spec
 * admits: every mirror an intermediary could route on is checked (the body value's JSON type
 * decides how).
 *
 * Per declaration, with the body's value at the property's path in `arguments`:
 *   absent or null          the header is not expected (one sent is ignored)
 *   object or array         not checked (argument validation refuses it as the wrong type)
 *   a string                the header, once decoded, must be the same string
 *   a boolean               the header must be `true` or `false`, the same
 *   a number                the header must be a decimal of the same number (`42.0` = `42`)
 *   header missing          refused, as the spec's "client omits header but value is in body"
 * A header value is decoded from the Base64 sentinel `=?base64?…?=` (lowercase markers, standard
 * canonical Base64 of UTF-8) and is otherwise literal; one with a character outside visible ASCII,
 * space and tab, or a sentinel whose payload is not Base64 of UTF-8, is refused as invalid.
 * Header names compare case-insensitively (`Headers` does); `Mcp-Param-*` headers that no
 * declaration of the called tool names are ignored (intermediaries forward them).
 *
 * The check runs before the SDK's own (version, envelope, standard headers): a request that
 * fails both gets this refusal. The called tool is found by any of its names, as `tools/call`
 * finds it; a tool of the registry outside the request's view is checked too (the call is
 * refused `forbidden` after that, as it is without headers).
 */
import type { HeaderDeclaration, Runtime } from "@zcp/runtime";
import { artifactSet, clip, headerDeclarations } from "@zcp/runtime";
import { json } from "../http/body.js";

/** The JSON-RPC error code of a header that contradicts the body (or is missing or malformed). */
const HEADER_MISMATCH = -32020;

/** A field value as the spec lets a client send it: visible ASCII, space and tab. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** RFC 4648 Base64, standard alphabet, canonical padding. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A plain decimal: what a number's header is compared numerically from (not `0x1a`, `1e3`). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * The 400 `-32020` answer for a 2026-07-28 `tools/call` whose `Mcp-Param-*` headers do not match
 * its `arguments`, else undefined (the request goes on to the SDK). `body` is the request's
 * parsed JSON body; anything but a `tools/call` of a tool of `runtime` with declarations passes.
 */
export function paramHeaderRefusal(
  request: Request,
  body: unknown,
  runtime: Runtime,
): Response | undefined {
  if (!isObject(body) || body["method"] !== "tools/call") return undefined;
  const params = body["params"];
  if (!isObject(params) || typeof params["name"] !== "string") return undefined;
  const tool = runtime.tool(params["name"]);
  // The MCP entry's input schema, walked once (`headerDeclarations` keeps each schema's).
  const schema = tool && artifactSet(runtime.registry, "mcp")[tool.id]?.inputSchema;
  const declarations = headerDeclarations(schema);
  if (declarations.length === 0) return undefined;
  const args = params["arguments"];
  for (const declaration of declarations) {
    const fault = mismatch(declaration, valueAt(args, declaration.path), request.headers);
    if (fault !== undefined) {
      const id = body["id"];
      return json(400, {
        jsonrpc: "2.0",
        id: typeof id === "string" || typeof id === "number" ? id : null,
        error: {
          code: HEADER_MISMATCH,
          message: `Header mismatch: ${fault}`,
          data: { header: declaration.header },
        },
      });
    }
  }
  return undefined;
}

/** Why the header of `declaration` does not match the body's `value`, else undefined. */
function mismatch(
  declaration: HeaderDeclaration,
  value: unknown,
  headers: Headers,
): string | undefined {
  if (value === undefined || value === null || typeof value === "object") return undefined;
  const { header } = declaration;
  const where = `arguments.${declaration.path.join(".")}`;
  const sent = headers.get(header);
  if (sent === null) return `the ${header} header is absent, but the body carries ${where}`;
  const decoded = decode(sent);
  if (decoded === undefined)
    return `the ${header} header is not a valid value (a character outside visible ASCII, or a =?base64?…?= value that is not Base64 of UTF-8)`;
  const same =
    typeof value === "number"
      ? DECIMAL.test(decoded) && Number(decoded) === value
      : decoded === String(value);
  if (same) return undefined;
  return `${header} header value ${JSON.stringify(clip(decoded))} does not match body value ${clip(JSON.stringify(value))} (${where})`;
}

/** A header's value: the sentinel's payload decoded, else the value itself; undefined if invalid. */
function decode(value: string): string | undefined {
  if (!FIELD_VALUE.test(value)) return undefined;
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))) return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64"));
  } catch {
    return undefined;
  }
}

/** The value at `path` in `root` (own properties only), undefined where there is none. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
