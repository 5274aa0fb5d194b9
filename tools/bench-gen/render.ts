/**
 * The synthesized model (model.ts, built by synth.ts) as TypeScript source text.
 */
import { localTypes, SHARED_NAMES, SHARED_VALUES } from "./shared-types.js";
import type { Field, Tool, ToolFile } from "./model.js";

/** A small, real change to one tool, as the watch benchmark makes it. */
export interface Edit {
  /** Index of the tool in its file. */
  readonly tool: number;
  /** Appended to the description, so that every edit changes the content. */
  readonly revision: number;
  /** Adds an optional trailing parameter (or property), so that the schema changes too. */
  readonly extraParam: boolean;
}

const EXTRA: Field = {
  name: "traceId",
  type: "string",
  doc: "Correlation id for the logs.",
  tags: ["@maxLength 64"],
  optional: true,
  literal: null,
  inlineDoc: false,
};

export function renderToolFile(file: ToolFile, edit?: Edit): string {
  const tools = file.tools.map((tool, index) =>
    edit && edit.tool === index ? applyEdit(tool, edit) : tool,
  );
  const body = [localTypes(file.suffix, file.channels), ...tools.map(renderTool)].join("\n");
  return `${importLine(body)}\n\n${body}`;
}

function applyEdit(tool: Tool, edit: Edit): Tool {
  return {
    ...tool,
    summary: `${tool.summary} Revision ${edit.revision}.`,
    fields: edit.extraParam ? [...tool.fields, EXTRA] : tool.fields,
  };
}

/** Imports what the file uses from types.ts: enums as values (defaults use them), the rest as types. */
function importLine(body: string): string {
  const used = SHARED_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  const names = [
    ...used.filter((n) => SHARED_VALUES.has(n)),
    ...used.filter((n) => !SHARED_VALUES.has(n)).map((n) => `type ${n}`),
  ];
  return `import { ${names.join(", ")} } from "./types.js";`;
}

function renderTool(tool: Tool): string {
  const doc = ["/**", ` * ${tool.summary}`];
  if (tool.detail) doc.push(" *", ` * ${tool.detail}`);
  doc.push(" *", ` * @tool ${tool.alias}`, ...tool.tags.map((tag) => ` * ${tag}`));
  if (tool.form === "positional") {
    for (const f of tool.fields) if (!f.inlineDoc) doc.push(` * @param ${f.name} ${f.doc}`);
  }
  for (const [name, text] of tool.paramDocs) doc.push(` * @param ${name} ${text}`);
  doc.push(" */");

  const params =
    tool.form === "positional"
      ? tool.fields.map((f) => `  ${positional(f)},`).join("\n")
      : `  ${objectParam(tool)},`;
  const isAsync = tool.returns.startsWith("Promise<");
  const body = `{\n  throw new Error("not implemented");\n}`;
  const fn = tool.arrow
    ? `export const ${tool.fn} = ${isAsync ? "async " : ""}(\n${params}\n): ${tool.returns} => ${body};`
    : `export ${isAsync ? "async " : ""}function ${tool.fn}(\n${params}\n): ${tool.returns} ${body}`;
  // Positional tools get an Args interface after them; object forms declare theirs before use.
  const named = renderInterface(tool.typeName, tool.fields, `Parameters of ${tool.fn}.`);
  return tool.form === "positional"
    ? `${doc.join("\n")}\n${fn}\n\n${named}`
    : `${named}\n${doc.join("\n")}\n${fn}\n`;
}

function positional(f: Field): string {
  const inline = f.inlineDoc
    ? `/** ${f.doc} ${f.tags.join(" ")} */ `
    : f.tags.length > 0
      ? `/** ${f.tags.join(" ")} */ `
      : "";
  return `${inline}${f.name}${f.optional ? "?" : ""}: ${f.type}${f.literal !== null ? ` = ${f.literal}` : ""}`;
}

function objectParam(tool: Tool): string {
  if (tool.form === "object") return `input: ${tool.typeName}`;
  const names = tool.fields.map((f) => (f.literal !== null ? `${f.name} = ${f.literal}` : f.name));
  return `{ ${names.join(", ")} }: ${tool.typeName}`;
}

function renderInterface(name: string, fields: readonly Field[], doc: string): string {
  const members = fields.map((f) => {
    const lines = [f.doc, ...f.tags];
    const comment = ["  /**", ...lines.map((line) => `   * ${line}`), "   */"].join("\n");
    // A parameter with a default is optional for the caller.
    return `${comment}\n  ${f.name}${f.optional || f.literal !== null ? "?" : ""}: ${f.type};`;
  });
  return `/** ${doc} */\nexport interface ${name} {\n${members.join("\n")}\n}\n`;
}
