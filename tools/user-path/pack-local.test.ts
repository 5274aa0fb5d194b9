/**
 * The getting-started page's one command for a project outside the repository while the
 * packages are not published: `pnpm pack:local <folder>` writes one tarball per package there,
 * and every tarball the page's install lines name is among them.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ok, userTemp, WORKSPACE } from "./packing.js";

describe("pnpm pack:local", () => {
  it("writes the tarballs docs/getting-started.md installs, one per package", async () => {
    const folder = await userTemp("zcp-packs-");
    try {
      await ok("pnpm", ["pack:local", folder], { cwd: WORKSPACE });
      const written = (await readdir(folder)).sort();
      const packages = (await readdir(path.join(WORKSPACE, "packages"))).sort();
      expect(written).toEqual(packages.map((name) => `zcp-${name}-0.1.0.tgz`));

      const page = await readFile(path.join(WORKSPACE, "docs/getting-started.md"), "utf8");
      const named = [...page.matchAll(/~\/zcp-packs\/(zcp-[a-z]+-0\.1\.0\.tgz)/g)].map((m) => m[1]);
      expect(named.length).toBeGreaterThan(2);
      for (const tarball of named) expect(written).toContain(tarball);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
