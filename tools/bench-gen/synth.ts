/**
 * Synthesizes the benchmark project: FILES tool files of TOOLS_PER_FILE annotated tools each,
 * plus shared types, deterministically from a fixed seed. The model (model.ts: what each tool
 * looks like) is kept separate from the text (render.ts) so that the watch benchmark can
 * re-render one file with a small, real edit.
 */
import fs from "node:fs";
import path from "node:path";
import {
  CHANNEL_WORDS,
  DETAIL_PARAGRAPHS,
  FIELD_KINDS,
  GROUPS,
  NOUNS,
  RETURN_KINDS,
  SECOND_SENTENCES,
  STAGES,
  VERBS,
  type FieldKind,
} from "./catalog.js";
import { Random } from "./random.js";
import type { Field, Form, Tool, ToolFile } from "./model.js";
import { renderToolFile, type Edit } from "./render.js";
import { SHARED_TYPES } from "./shared-types.js";

const SEED = 20240611;
const FILES = 50;
const TOOLS_PER_FILE = 20;

export interface Manifest {
  readonly root: string;
  /** Absolute paths of every synthesized source file (types.ts first). */
  readonly files: string[];
  readonly tools: number;
  /** One named parameter type per tool, for typescript-json-schema. */
  readonly symbols: string[];
}

export function synthesize(seed = SEED): ToolFile[] {
  const random = new Random(seed);
  return Array.from({ length: FILES }, (_, index) => synthesizeFile(random, index));
}

function synthesizeFile(random: Random, index: number): ToolFile {
  const suffix = String(index).padStart(2, "0");
  const channels = random.sample(CHANNEL_WORDS, random.int(2, 4));
  const home = GROUPS[index % GROUPS.length]!;
  const tools = Array.from({ length: TOOLS_PER_FILE }, (_, k) =>
    synthesizeTool(random, suffix, k, home),
  );
  return { suffix, path: `src/mod${suffix}.ts`, channels, tools };
}

function synthesizeTool(random: Random, s: string, k: number, home: string): Tool {
  const { verb, phrase, flags } = random.pick(VERBS);
  const { noun, nouns } = random.pick(NOUNS);
  const kk = String(k).padStart(2, "0");
  const fn = `${verb}${capitalize(noun)}${s}${kk}`;
  const roll = random.next();
  const form: Form = roll < 0.45 ? "positional" : roll < 0.85 ? "object" : "destructured";
  const returned = random.pick(RETURN_KINDS);

  const tags: string[] = [];
  if (returned.output) tags.push(`@output ${returned.output}`);
  else if (random.chance(0.3)) tags.push("@output auto");
  const groups = random.chance(0.5) ? [home, random.pick(GROUPS)] : [home];
  tags.push(`@groups ${[...new Set(groups)].join(" ")}`);
  if (random.chance(0.6)) tags.push(`@stages ${random.sample(STAGES, random.int(1, 2)).join(" ")}`);
  if (flags.length > 0) tags.push(`@flags ${flags.join(" ")}`);
  if (random.chance(0.1)) tags.push(`@title ${capitalize(verb)} ${noun}`);
  if (random.chance(0.03)) tags.push(`@deprecated Use the ${noun} tools of the v2 module.`);

  let summary = `${phrase.replace("{nouns}", nouns).replace("{noun}", noun)}.`;
  if (random.chance(0.6)) summary += ` ${random.pick(SECOND_SENTENCES)}`;
  const detail = random.chance(0.25) ? random.pick(DETAIL_PARAGRAPHS) : null;

  const fields =
    form === "positional" ? positionalFields(random, s) : objectFields(random, s, form);
  const paramDocs: [string, string][] = [];
  if (form === "object") {
    paramDocs.push(["input", "The request."]);
    // A dotted @param overrides the property's own doc: zcp must prefer it.
    if (random.chance(0.3))
      paramDocs.push([
        `input.${fields[0]!.name}`,
        `${fields[0]!.doc.replace(/\.$/, "")}, for this ${noun}.`,
      ]);
  } else if (form === "destructured" && random.chance(0.3)) {
    paramDocs.push([fields[0]!.name, `${fields[0]!.doc.replace(/\.$/, "")}, for this ${noun}.`]);
  }

  return {
    fn,
    alias: `m${s}.${verb}_${noun}_${kk}`,
    typeName: `${capitalize(fn)}${form === "positional" ? "Args" : "Input"}`,
    form,
    arrow: random.chance(0.15),
    returns: returned.type.replaceAll("$", s),
    summary,
    detail,
    tags,
    fields,
    paramDocs,
  };
}

/** 2 to 5 parameters (a lone object-typed one would make zcp treat the tool as object-form). */
function positionalFields(random: Random, s: string): Field[] {
  const kinds = random.sample(FIELD_KINDS, random.int(2, 5));
  const fields = kinds.map((kind) => {
    const roll = random.next();
    const state = roll < 0.5 ? "required" : roll < 0.75 || !kind.literal ? "optional" : "default";
    return field(kind, s, {
      optional: state === "optional",
      literal: state === "default" ? kind.literal! : null,
      inlineDoc: (kind.tags?.length ?? 0) > 0 && random.chance(0.3),
    });
  });
  // Required parameters first: a default before a required one is not optional in TypeScript.
  const required = fields.filter((f) => !f.optional && f.literal === null);
  return [...required, ...fields.filter((f) => f.optional || f.literal !== null)];
}

function objectFields(random: Random, s: string, form: Form): Field[] {
  const kinds = random.sample(
    FIELD_KINDS,
    random.int(form === "object" ? 3 : 2, form === "object" ? 7 : 6),
  );
  return kinds.map((kind) => {
    if (form === "destructured" && kind.literal && random.chance(0.5)) {
      return field(kind, s, { optional: true, literal: kind.literal, inlineDoc: false });
    }
    return field(kind, s, { optional: random.chance(0.3), literal: null, inlineDoc: false });
  });
}

function field(
  kind: FieldKind,
  s: string,
  how: Pick<Field, "optional" | "literal" | "inlineDoc">,
): Field {
  return {
    name: kind.name,
    type: kind.type.replaceAll("$", s),
    doc: kind.doc,
    tags: kind.tags ?? [],
    ...how,
  };
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The project's config files, as [relative path, content]. */
function configFiles(): [string, string][] {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return [
    ["zcp.config.json", json({ include: ["src/**/*.ts"], outDir: "src/zcp.gen" })],
    // Self-contained: no `extends`, and `types: []` so that no @types package found in a
    // parent folder (the repository has @types/node) leaks into the measured programs.
    [
      "tsconfig.json",
      json({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: [],
        },
        include: ["src"],
      }),
    ],
    ["package.json", json({ type: "module" })],
  ];
}

/** Writes the project under `root` (replacing whatever is there) and returns its manifest. */
export function writeProject(root: string, files: readonly ToolFile[], runtime: string): Manifest {
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, "src"), { recursive: true });
  for (const [name, content] of configFiles()) fs.writeFileSync(path.join(root, name), content);
  const typesFile = path.join(root, "src", "types.ts");
  fs.writeFileSync(typesFile, SHARED_TYPES);
  for (const file of files) writeToolFile(root, file);
  // The generated registry imports its types from @zcp/runtime.
  fs.mkdirSync(path.join(root, "node_modules", "@zcp"), { recursive: true });
  fs.symlinkSync(runtime, path.join(root, "node_modules", "@zcp", "runtime"), "dir");
  return {
    root,
    files: [typesFile, ...files.map((file) => path.join(root, file.path))],
    tools: files.reduce((sum, file) => sum + file.tools.length, 0),
    symbols: files.flatMap((file) => file.tools.map((tool) => tool.typeName)),
  };
}

/** (Re)writes one tool file, optionally with `edit` applied to one of its tools. */
export function writeToolFile(root: string, file: ToolFile, edit?: Edit): void {
  fs.writeFileSync(path.join(root, file.path), renderToolFile(file, edit));
}
