/**
 * Cursors are opaque to clients: base64url of `<scope>:<position>`. A tools cursor's scope holds
 * the view's hash, so a cursor from before a stage change is refused (list again from the start).
 */
import { ProtocolErrorCode as ErrorCode } from "@modelcontextprotocol/server";
import { ProtocolError } from "./errors.js";

export function writeCursor(scope: string, position: number): string {
  return Buffer.from(`${scope}:${position}`, "utf8").toString("base64url");
}

/** The position a cursor of `scope` carries (0 without a cursor); -32602 for one this listing did not issue. */
export function readCursor(cursor: string | undefined, scope: string, limit: number): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^(.*):([1-9][0-9]{0,14})$/.exec(text);
  if (
    !match ||
    match[1] !== scope ||
    Number(match[2]) >= limit ||
    writeCursor(scope, Number(match[2])) !== cursor
  ) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      "Invalid cursor: it was not issued by this listing, or the listing changed since; list again without a cursor",
    );
  }
  return Number(match[2]);
}
