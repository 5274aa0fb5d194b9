/**
 * Generated files type-check under the strictest flags users turn on (`STRICTEST_OPTIONS`:
 * `strict`, `noPropertyAccessFromIndexSignature`, `noUnusedLocals`, `noUnusedParameters`,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `verbatimModuleSyntax`,
 * `isolatedModules`, `erasableSyntaxOnly`...), compiled the two ways users compile ES modules:
 * `module: nodenext` and `module: preserve` with `moduleResolution: bundler`.
 *
 * tsc runs over every fixture's checked-in `src/zcp.gen/index.ts` and `types.ts` (index.ts
 * imports the other generated modules, and dispatch.ts the tool sources). Only errors located in
 * generated files count: the fixtures' own sources are not written for these flags (enums fail
 * `erasableSyntaxOnly`), and the diagnostics fixture's are broken on purpose. The generated
 * validators of synthetic schemas get the same check in validators/generated-file.test.ts.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, MODULE_SETTINGS, REPO, strictTsc, type TscResult } from "./helpers.js";

const NAMES = ["weather", "kitchen-sink", "workbench", "diagnostics"];
const GENERATED = ["dispatch.ts", "index.ts", "registry.ts", "types.ts", "validators.ts"];
const outDir = (name: string) => path.join(FIXTURES, name, "src/zcp.gen");

for (const settings of Object.keys(MODULE_SETTINGS) as (keyof typeof MODULE_SETTINGS)[]) {
  describe(`generated files under the strictest flags, ${JSON.stringify(MODULE_SETTINGS[settings])}`, () => {
    let result: TscResult;
    beforeAll(() => {
      result = strictTsc(
        NAMES.flatMap((name) => [
          path.join(outDir(name), "index.ts"),
          path.join(outDir(name), "types.ts"),
        ]),
        settings,
      );
    });

    it("resolves @zcp/runtime as a user's project does: through node_modules to its built declarations", () => {
      const runtime = result.files.filter((file) =>
        file.startsWith(path.join(REPO, "packages/runtime") + path.sep),
      );
      expect(runtime).toContain(path.join(REPO, "packages/runtime/dist/codegen/index.d.ts"));
      expect(runtime.filter((file) => !file.includes(`${path.sep}dist${path.sep}`))).toEqual([]);
    });

    for (const name of NAMES) {
      it(`has no errors in the ${name} fixture's generated files`, () => {
        for (const file of GENERATED) expect(result.files).toContain(path.join(outDir(name), file));
        const ours = result.errors.filter((error) => error.startsWith(outDir(name) + path.sep));
        expect(ours).toEqual([]);
      });
    }
  });
}
