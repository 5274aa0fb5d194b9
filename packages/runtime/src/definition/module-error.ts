/**
 * Thrown by `createRuntime` for a generated module that cannot be served: not one at all, one
 * written by an incompatible `zcp gen`, or files of different runs mixed together. Start-up is
 * where this must surface, never a client's first request. It sits with the registry format
 * because what checks a definition below the runtime throws it too: `prefixTool` (used by
 * `zcp gen`) and `checkComposedPackage` (called by generated code).
 */
export class GeneratedModuleError extends Error {
  override name = "GeneratedModuleError";
}
