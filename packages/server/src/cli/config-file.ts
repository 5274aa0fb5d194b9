/**
 * `--config-file`: the server configuration the tools read (`ctx.config`), from a JSON file.
 * The file is the operator's, but it is read before anything checks it: its size is bounded and
 * every way it can be wrong (missing, a folder, too large, not JSON) is one line that names the
 * file. Whether it fits the tools' type is the runtime's check (`ConfigurationError`).
 */
import { open } from "node:fs/promises";
import path from "node:path";

/** A configuration file's largest size: a configuration, not a data set. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The configuration `file` (relative to `cwd`) holds, or why it cannot be read. */
export async function readConfigFile(
  file: string,
  cwd: string,
): Promise<{ readonly config: unknown } | { readonly failure: string }> {
  const where = `--config-file ${file}`;
  let text: string;
  try {
    const handle = await open(path.resolve(cwd, file), "r");
    try {
      // One byte past the bound tells a file that is too large, without reading all of it.
      const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_CONFIG_BYTES)
        return { failure: `${where}: larger than ${MAX_CONFIG_BYTES} bytes` };
      text = buffer.toString("utf8", 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a folder"
          : code === "EACCES"
            ? "permission denied"
            : (error as Error).message;
    return { failure: `${where}: ${why}` };
  }
  try {
    return { config: JSON.parse(text) as unknown };
  } catch (error) {
    return { failure: `${where}: not JSON (${(error as Error).message})` };
  }
}
