/**
 * MCP resources: the generated static resources and templates (`@resource`, the runtime's
 * `Features`), and handles: `zcp://handle/<url-encoded handle id>`, e.g. `zcp://handle/%23T1`.
 * A URI names a handle and nothing else: no session id, nothing that grants access anywhere. It
 * is resolved only against the handles of the session that reads it (the store keeps them by
 * owner), so another session's URI, or one that never existed, gets the same "not found".
 * `resources/list` lists the static resources, then the handles this session was given;
 * `resources/templates/list` the generated templates, then the handles' one.
 */
import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Resource,
  Server,
} from "@modelcontextprotocol/server";
import type { Features, Runtime, Session } from "@zcp/runtime";
import { reserveFor } from "../budget.js";
import { featureValue, ProtocolError } from "./errors.js";
import { readCursor, writeCursor } from "./paging.js";

/**
 * The code of an answer about a resource that does not exist: -32602 (invalid params), as MCP
 * 2026-07-28 says. The 2025 spec's -32002 is gone from both eras: the v2 SDK answers -32602 for
 * it on every connection, and 2025 clients read it as a plain JSON-RPC error.
 */
export const RESOURCE_NOT_FOUND = -32602;

/** The scheme and authority of handle URIs: `zcp://handle/<url-encoded handle id>`. */
export const HANDLE_URI_PREFIX = "zcp://handle/";

/** The URI template of handle resources, as `resources/templates/list` lists it. */
export const HANDLE_URI_TEMPLATE = `${HANDLE_URI_PREFIX}{handle}`;

/** The URI of a handle (of whichever session reads it). */
export function handleUri(handle: string): string {
  return `${HANDLE_URI_PREFIX}${encodeURIComponent(handle)}`;
}

/** `{ handle }` of a handle URI, or undefined when the text is not one. */
export function parseHandleUri(uri: string): { readonly handle: string } | undefined {
  if (!uri.startsWith(HANDLE_URI_PREFIX)) return undefined;
  const encoded = uri.slice(HANDLE_URI_PREFIX.length);
  if (encoded === "" || encoded.includes("/")) return undefined;
  try {
    return { handle: decodeURIComponent(encoded) };
  } catch {
    return undefined;
  }
}

/**
 * The handles this session was given, in the order it got them, for `resources/list`. Listing
 * them does not read the store (a read is a use and would keep them alive), so a handle that
 * expired or was evicted since may still be listed; reading it answers "not found".
 *
 * Only a 2025 session lists its handles (`listed`): on the 2026-07-28 era `resources/list` may
 * not vary by history, and callers without an authorization share one owner, whose handle ids
 * are their only protection; its handles are read by the URI of a call's `resource_link`.
 */
export class IssuedHandles {
  private readonly byId = new Map<string, { readonly seq: number; readonly resource: Resource }>();
  private seq = 0;

  constructor(private readonly listed: boolean) {}

  add(id: string, resource: Resource): void {
    if (!this.listed) return;
    this.byId.delete(id);
    this.byId.set(id, { seq: ++this.seq, resource });
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /** Up to `count` entries issued after sequence number `after`. */
  after(after: number, count: number): { readonly seq: number; readonly resource: Resource }[] {
    const out: { readonly seq: number; readonly resource: Resource }[] = [];
    for (const entry of this.byId.values()) {
      if (entry.seq <= after) continue;
      out.push(entry);
      if (out.length === count) break;
    }
    return out;
  }
}

/** Registers `resources/list`, `resources/templates/list` and `resources/read`: the generated resources and the session's handles. */
export function serveHandleResources(
  server: Server,
  runtime: Runtime,
  session: Session,
  handles: IssuedHandles,
  pageSize: number,
): void {
  const statics = listedResources(runtime.features);
  server.setRequestHandler("resources/list", (request) => {
    // The static resources first (cursors `s:<index>`), then the handles (`r:<sequence>`).
    const cursor = request.params?.cursor;
    const inStatics = cursor === undefined || cursorScope(cursor) === "s";
    const at = inStatics ? readCursor(cursor, "s", statics.length + 1) : statics.length;
    const result: ListResourcesResult = { resources: statics.slice(at, at + pageSize) };
    if (at + pageSize < statics.length) {
      result.nextCursor = writeCursor("s", at + pageSize);
      return result;
    }
    const room = pageSize - result.resources.length;
    const after = inStatics ? 0 : readCursor(cursor, "r", Number.MAX_SAFE_INTEGER);
    const page = handles.after(after, room + 1);
    result.resources.push(...page.slice(0, room).map((entry) => entry.resource));
    if (page.length > room)
      result.nextCursor =
        room === 0 ? writeCursor("s", statics.length) : writeCursor("r", page[room - 1]!.seq);
    return result;
  });

  const templates = listedTemplates(runtime.features);
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      ...templates,
      {
        uriTemplate: HANDLE_URI_TEMPLATE,
        name: "zcp-handle",
        title: "ZCP handle",
        description:
          "A result a tool kept in the runtime (a handle such as #T1), as JSON. Only this session's handles can be read.",
        mimeType: "application/json",
      },
    ],
  }));

  server.setRequestHandler(
    "resources/read",
    async (request, extra): Promise<ReadResourceResult> => {
      const { uri } = request.params;
      const parsed = parseHandleUri(uri);
      if (!parsed) {
        const read = await runtime.features.read(uri);
        if (!read.ok && read.error === "not_found")
          throw new ProtocolError(RESOURCE_NOT_FOUND, read.message, { uri });
        return { contents: [featureValue(read, { uri })] };
      }
      // Looked up among this session's handles only: another session's is as unknown here as
      // one that never existed. The value's size is reserved from the request's response
      // budget before the value is read (a refusal throws the JSON-RPC error).
      const read = await runtime.handles.json(
        session.id,
        parsed.handle,
        reserveFor(server, extra.mcpReq.id),
      );
      if (!read.ok) {
        if (read.error.startsWith("expired:")) handles.forget(parsed.handle);
        throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${read.hint}`, { uri });
      }
      return {
        contents: [
          // The value's JSON as kept: compact, as `JSON.stringify` of the value would give.
          { uri, mimeType: "application/json", text: read.json },
        ],
      };
    },
  );
}

/** The scope of a cursor this listing wrote (`s` or `r`), read without checking it. */
function cursorScope(cursor: string): string {
  return Buffer.from(cursor, "base64url").toString("utf8").split(":", 1)[0]!;
}

/** The static resources as `resources/list` lists them. */
function listedResources(features: Features): Resource[] {
  return features.resources.map((resource) => ({
    uri: resource.uri,
    name: resource.name,
    ...(resource.title !== null ? { title: resource.title } : {}),
    description: resource.description,
    mimeType: resource.mimeType,
  }));
}

/** The templates as `resources/templates/list` lists them. */
function listedTemplates(features: Features): ListResourceTemplatesResult["resourceTemplates"] {
  return features.templates.map((template) => ({
    uriTemplate: template.uriTemplate,
    name: template.name,
    ...(template.title !== null ? { title: template.title } : {}),
    description: template.description,
    mimeType: template.mimeType,
  }));
}
