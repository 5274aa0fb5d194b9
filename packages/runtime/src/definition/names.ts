/**
 * The names a tool gets from its alias, shared by `zcp gen` (which writes them) and
 * `composeGenerated` (which derives them again for a prefixed tool): its id and its
 * provider-safe name. Both depend on the alias alone.
 */
import { createHash } from "node:crypto";

const ID_LENGTH = 6;

/** Short, stable id from the alias alone: renaming a tool changes its id, editing it does not. */
export function deriveId(alias: string): string {
  const digest = createHash("sha256").update(`zcp-id:${alias}`).digest();
  return digest.readBigUInt64BE(0).toString(36).padStart(ID_LENGTH, "0").slice(0, ID_LENGTH);
}

/** Provider-safe name: `^[A-Za-z0-9_-]{1,64}$`, dots and other characters become `_`. */
export function providerName(alias: string): string {
  return alias.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}
