/**
 * The servers `pnpm bench:real` and the ports' behaviour tests run: each original (an npm
 * package started over stdio), its port (a fixture's generated module), the call script, and how
 * a run starts from the same state on every server (`reset`: an empty knowledge graph, the
 * project folder written afresh). The port runs in this process (or under `zcp-serve`) and
 * reads its server configuration (`portConfig`: `createRuntime`'s `config`, `zcp-serve
 * --config-file`'s file) where the original reads its own from its command line or environment.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { GeneratedModule } from "@zcp/runtime";
import { generated as everythingPort } from "@zcp-fixtures/real-everything/src/zcp.gen/index.ts";
import { generated as githubPort } from "@zcp-fixtures/real-github/src/zcp.gen/index.ts";
import { generated as filesystemPort } from "@zcp-fixtures/real-filesystem/src/zcp.gen/index.ts";
import { generated as memoryPort } from "@zcp-fixtures/real-memory/src/zcp.gen/index.ts";
import type { Original } from "./connect.ts";
import type { FakeGitHub } from "./github/fake-api.ts";
import type { Script } from "./script.ts";
import { everythingScript } from "./scripts/everything.ts";
import { filesystemScript, seedProject } from "./scripts/filesystem.ts";
import { githubScript } from "./scripts/github.ts";
import { memoryScript } from "./scripts/memory.ts";

export interface RealServer {
  readonly name: string;
  readonly original: Original;
  readonly port: GeneratedModule;
  /** The port's server configuration (its tools' `ctx.config`), as a user writes it. */
  readonly portConfig: Readonly<Record<string, unknown>>;
  readonly script: Script;
  readonly reset: () => void;
}

/** server-github's requests go to the fake through this preload (github/redirect.mjs). */
const REDIRECT = fileURLToPath(new URL("github/redirect.mjs", import.meta.url));

/** The servers, with their state in `dir` (a temporary folder of the caller's) and GitHub's API faked by `github`. */
export function realServers(dir: string, github: FakeGitHub): RealServer[] {
  const root = fs.realpathSync(dir);
  const memoryFile = path.join(root, "memory.jsonl");
  const project = path.join(root, "project");
  return [
    {
      name: "memory",
      original: {
        package: "@modelcontextprotocol/server-memory",
        args: [],
        env: { MEMORY_FILE_PATH: memoryFile },
      },
      port: memoryPort,
      portConfig: { memoryFilePath: memoryFile },
      script: memoryScript,
      reset: () => fs.rmSync(memoryFile, { force: true }),
    },
    {
      name: "filesystem",
      original: { package: "@modelcontextprotocol/server-filesystem", args: [project] },
      port: filesystemPort,
      portConfig: { allowedDirectories: [project] },
      script: filesystemScript(project),
      reset: () => seedProject(project),
    },
    {
      name: "everything",
      original: { package: "@modelcontextprotocol/server-everything", args: [] },
      port: everythingPort,
      portConfig: {},
      script: everythingScript,
      // Its tools keep no state between calls that the script relies on.
      reset: () => {},
    },
    {
      name: "github",
      original: {
        package: "@modelcontextprotocol/server-github",
        nodeArgs: ["--import", REDIRECT],
        args: [],
        env: { GITHUB_API_URL: github.url },
      },
      port: githubPort,
      portConfig: { apiUrl: github.url },
      script: githubScript,
      reset: () => github.reset(),
    },
  ];
}
