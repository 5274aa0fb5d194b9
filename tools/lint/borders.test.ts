/**
 * The lint's border check (borders.ts) on small repositories written for the test, and on this
 * one: a crossing between rooms and an import of an unlisted package are reported with the rule
 * they break, a clean tree passes, the table is checked too, and the repository has no crossing.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { borders } from "./borders.ts";
import { order, type Rooms } from "./rooms.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A workspace of one package, `p` (depending on `dep`, with `devDep` for tests), holding `files`
 *  (paths under packages/p), and what the check says of it under `rooms`. */
function check(files: { readonly [file: string]: string }, rooms: Rooms): string[] {
  const root = mkdtempSync(path.join(os.tmpdir(), "zcp-borders-"));
  made.push(root);
  const all = {
    "package.json": JSON.stringify({ devDependencies: { vitest: "1" } }),
    "packages/p/package.json": JSON.stringify({
      name: "@zcp/p",
      dependencies: { dep: "1" },
      devDependencies: { devDep: "1" },
    }),
    ...Object.fromEntries(
      Object.entries(files).map(([file, text]) => [`packages/p/${file}`, text]),
    ),
  };
  for (const [file, text] of Object.entries(all)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return borders(root, { p: rooms });
}

/** Three stages in order, and a shared file below them. */
const STAGES = order("shared.ts", "scan/", "emit/", "index.ts");
const CLEAN = {
  "src/shared.ts": "export const shared = 1;\n",
  "src/scan/index.ts": 'import "../shared.js";\nimport "./files.js";\n',
  "src/scan/files.ts": 'import "dep/sub";\nimport "node:fs";\nimport "fs";\n',
  "src/emit/index.ts": 'import type {} from "../scan/files.js";\nimport "@zcp/p";\n',
  "src/index.ts": 'export * from "./emit/index.js";\n',
  "test/emit.test.ts": 'import "vitest";\nimport "devDep";\nimport "../src/emit/index.js";\n',
};

describe("the border check", () => {
  it("passes a tree that keeps its rooms' order and its package's dependencies", () => {
    expect(check(CLEAN, STAGES)).toEqual([]);
  });

  it("reports an import of a later room, type-only or dynamic, with what the room may import", () => {
    const files = {
      ...CLEAN,
      "src/scan/late.ts": 'import type { X } from "../emit/index.js";\nexport type Y = X;\n',
      "src/shared.ts": 'export const load = () => import("./scan/index.js");\n',
    };
    expect(check(files, STAGES)).toEqual([
      "packages/p/src/scan/late.ts imports ../emit/index.js: scan/ may import only shared.ts (the p table of tools/lint/rooms.ts)",
      "packages/p/src/shared.ts imports ./scan/index.js: shared.ts may import no other room (the p table of tools/lint/rooms.ts)",
    ]);
  });

  it("keeps rooms that may not see each other apart, and lets a room import one named file", () => {
    const rooms = {
      "http/": [],
      "mcp/": ["http/"],
      "native/": ["http/"],
      "node/": ["native/http.ts"],
    };
    const files = {
      "src/http/body.ts": "export {};\n",
      "src/mcp/server.ts": 'import "../http/body.js";\nimport "../native/http.js";\n',
      "src/native/http.ts": "export {};\n",
      "src/native/session.ts": "export {};\n",
      "src/node/server.ts": 'import "../native/http.js";\nimport "../native/session.js";\n',
    };
    expect(check(files, rooms)).toEqual([
      "packages/p/src/mcp/server.ts imports ../native/http.js: mcp/ may import only http/ (the p table of tools/lint/rooms.ts)",
      "packages/p/src/node/server.ts imports ../native/session.js: node/ may import only native/http.ts (the p table of tools/lint/rooms.ts)",
    ]);
  });

  it("reports a file in no room, an import out of src/, and a table that is no order or names nothing", () => {
    const files = {
      ...CLEAN,
      "src/new.ts": "export {};\n",
      "src/index.ts": 'import "../test/emit.test.js";\n',
    };
    const rooms = {
      ...STAGES,
      "scan/": ["shared.ts", "emit/"],
      "gone/": [],
      "index.ts": ["emit/", "write/"],
    };
    expect(check(files, rooms)).toEqual([
      "the p table of tools/lint/rooms.ts lets index.ts import write/, which packages/p/src has not",
      "the p table of tools/lint/rooms.ts names room gone/, which packages/p/src has not",
      "the p table of tools/lint/rooms.ts is not an order: emit/, scan/ import each other",
      "packages/p/src/index.ts imports ../test/emit.test.js, outside packages/p/src: import another package by its name",
      "packages/p/src/new.ts is in no room: place it in the p table of tools/lint/rooms.ts",
    ]);
  });

  it("reports a package that package.json does not list, and a dev dependency outside the tests", () => {
    const files = {
      ...CLEAN,
      "src/scan/files.ts": 'import "devDep";\nimport "@other/pkg/sub";\n',
      "test/emit.test.ts": 'import "unlisted";\n',
    };
    expect(check(files, STAGES)).toEqual([
      "packages/p/src/scan/files.ts imports devDep: packages/p/package.json lists devDep in neither dependencies nor peerDependencies (devDependencies are for its tests)",
      "packages/p/src/scan/files.ts imports @other/pkg/sub: packages/p/package.json lists @other/pkg in neither dependencies nor peerDependencies (devDependencies are for its tests)",
      "packages/p/test/emit.test.ts imports unlisted: neither packages/p/package.json nor the workspace's lists unlisted",
    ]);
  });

  it("finds no crossing in the repository", () => {
    expect(borders(ROOT)).toEqual([]);
  });
});
