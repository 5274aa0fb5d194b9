/**
 * cli: drift, for `zcp gen --check` on a `fromMcp` project. The manifest the last `zcp gen`
 * wrote records the listing hash (`upstream.listingHash`); a listing with another hash is an
 * error that says what to do.
 */
import fs from "node:fs";
import path from "node:path";
import { diagnostic, relativePath, type Diagnostic } from "../diagnostics.js";
import { MANIFEST } from "../emit/manifest.js";

/** The listing hash the manifest in `outDir` records, or null without one. */
function recordedListingHash(outDir: string): string | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST), "utf8")) as {
      upstream?: { listingHash?: unknown };
    };
    const hash = manifest.upstream?.listingHash;
    return typeof hash === "string" ? hash : null;
  } catch {
    return null;
  }
}

/** ZCP1706 when the manifest records a listing hash other than `listingHash`; [] otherwise. */
export function driftDiagnostics(outDir: string, listingHash: string, cwd: string): Diagnostic[] {
  const recorded = recordedListingHash(outDir);
  if (recorded === null || recorded === listingHash) return [];
  const manifest = relativePath(cwd, path.join(outDir, MANIFEST));
  return [
    diagnostic(
      "error",
      "ZCP1706",
      `the upstream's tool listing changed since zcp gen wrote ${manifest}: run zcp gen`,
    ),
  ];
}
