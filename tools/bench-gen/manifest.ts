/**
 * The synthesized project's manifest, written next to it (outside the project folder, so zcp
 * never sees it) for the floor and typescript-json-schema scripts, which run as separate
 * processes and must work on exactly the same files.
 */
import fs from "node:fs";
import type { Manifest } from "./synth.js";

export function saveManifest(file: string, manifest: Manifest): void {
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

export function loadManifest(file: string | undefined): Manifest {
  if (!file) throw new Error("usage: node --import tsx <script> <manifest.json>");
  return JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
}
