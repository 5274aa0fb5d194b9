/**
 * The generated registries the cases run on, each with its lean twin: the same module with the
 * lean artifact sets too (`zcp.gen/lean.ts`), which a runtime needs to answer `tools/list` with
 * `lean: true`. Only the `zcp-fc-lean` surface is created from the twin; the others use the
 * module a user ships by default (`zcp.gen/index.ts`).
 */
import type { GeneratedModule } from "@zcp/runtime";
import weather from "../../fixtures/weather/src/zcp.gen/index.ts";
import weatherLean from "../../fixtures/weather/src/zcp.gen/lean.ts";
import workbench from "../../fixtures/workbench/src/zcp.gen/index.ts";
import workbenchLean from "../../fixtures/workbench/src/zcp.gen/lean.ts";

export { weather, workbench };

const LEAN = new Map<GeneratedModule, GeneratedModule>([
  [weather, weatherLean],
  [workbench, workbenchLean],
]);

/** The lean twin of a registry; throws for one without (a case must run on a registry listed here). */
export function leanOf(generated: GeneratedModule): GeneratedModule {
  const lean = LEAN.get(generated);
  if (lean === undefined)
    throw new Error("no lean twin for this registry: add its zcp.gen/lean.ts to registries.ts");
  return lean;
}
