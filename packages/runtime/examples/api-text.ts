/**
 * The API text of a view: the weather fixture's tools as the TypeScript declarations a program
 * calls them through, with and without documentation:
 *   node --import tsx packages/runtime/examples/api-text.ts
 */
import { createRuntime, renderDeclarations } from "@zcp/runtime";
import generated from "../../../fixtures/weather/src/zcp.gen/index.js";

const runtime = createRuntime(generated, {
  exposure: { defaults: { "*": { groups: ["weather"] } } },
});
const view = runtime.session().exposed;

// What a model reads before writing a program against the session's tools.
console.log(view.declarations());
// The bare form, and the same text for any definitions (e.g. a tools/list json listing's).
console.log(view.declarations({ docs: false }));
console.log(renderDeclarations(view.tools) === view.declarations());
