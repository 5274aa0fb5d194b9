/**
 * Handles as MCP resources: `zcp://handle/<runtime session id>/<url-encoded handle id>`.
 * `resources/read` serves only the handles of the session it runs in (another session's URI gets
 * the same "not found" as one that never existed), `resources/list` lists the handles this session
 * was given, `resources/templates/list` has the one URI template.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type ListResourcesResult,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { Runtime, Session } from "@zcp/runtime";
import { ProtocolError } from "./errors.js";
import { readCursor, writeCursor } from "./paging.js";

/** MCP's code for a resource that does not exist (spec: resources, error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** The scheme and authority of handle URIs: `zcp://handle/<runtime session id>/<url-encoded handle id>`. */
export const HANDLE_URI_PREFIX = "zcp://handle/";

/** The URI template of handle resources, as `resources/templates/list` lists it. */
export const HANDLE_URI_TEMPLATE = `${HANDLE_URI_PREFIX}{session}/{handle}`;

/** The URI of a handle of a session. */
export function handleUri(sessionId: string, handle: string): string {
  return `${HANDLE_URI_PREFIX}${encodeURIComponent(sessionId)}/${encodeURIComponent(handle)}`;
}

/** `{ sessionId, handle }` of a handle URI, or undefined when the text is not one. */
export function parseHandleUri(
  uri: string,
): { readonly sessionId: string; readonly handle: string } | undefined {
  if (!uri.startsWith(HANDLE_URI_PREFIX)) return undefined;
  const parts = uri.slice(HANDLE_URI_PREFIX.length).split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  try {
    return { sessionId: decodeURIComponent(parts[0]), handle: decodeURIComponent(parts[1]) };
  } catch {
    return undefined;
  }
}

/**
 * The handles this session was given, in the order it got them, for `resources/list`. Listing
 * them does not read the store (a read is a use and would keep them alive), so a handle that
 * expired or was evicted since may still be listed; reading it answers "not found".
 */
export class IssuedHandles {
  private readonly byId = new Map<string, { readonly seq: number; readonly resource: Resource }>();
  private seq = 0;

  add(id: string, resource: Resource): void {
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

/** Registers `resources/list`, `resources/templates/list` and `resources/read` for the session's handles. */
export function serveHandleResources(
  server: Server,
  runtime: Runtime,
  session: Session,
  handles: IssuedHandles,
  pageSize: number,
): void {
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const after = readCursor(request.params?.cursor, "r", Number.MAX_SAFE_INTEGER);
    const page = handles.after(after, pageSize + 1);
    const result: ListResourcesResult = {
      resources: page.slice(0, pageSize).map((entry) => entry.resource),
    };
    if (page.length > pageSize) result.nextCursor = writeCursor("r", page[pageSize - 1]!.seq);
    return result;
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
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
    ReadResourceRequestSchema,
    async (request): Promise<ReadResourceResult> => {
      const { uri } = request.params;
      const parsed = parseHandleUri(uri);
      // Another session's URI gets the same answer as one that never existed: nothing leaks.
      if (!parsed || parsed.sessionId !== session.id)
        throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
      const read = await runtime.handles.read(session.id, parsed.handle);
      if (!read.ok) {
        if (read.error.startsWith("expired:")) handles.forget(parsed.handle);
        throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${read.hint}`, { uri });
      }
      return {
        contents: [
          { uri, mimeType: "application/json", text: JSON.stringify(read.value) ?? "null" },
        ],
      };
    },
  );
}
