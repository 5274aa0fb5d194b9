/**
 * cli: what `zcp gen --watch` watches, with chokidar: the folders the include globs start from
 * (recursively, so new files and new folders are seen), and the files a run read outside them
 * (the config, the tsconfig chain, imported files). Node 20's recursive `fs.watch` loses track
 * on Linux once an editor saves a file by rename (write a temporary file, rename it over: atomic
 * saves, `sed -i`); chokidar watches each folder and file and notices the new file behind a name.
 *
 * A file outside the include folders is watched through its folder, with everything else in that
 * folder ignored, so that deleting and creating it again is seen too. The output folder,
 * `node_modules` and `.git` are never watched, and inside the include folders only files that
 * TypeScript can load (.ts, .tsx, .mts, .cts, .js and friends, .json): the temporary files of
 * atomic saves are not changes.
 *
 * Events are collected until none has come for `DEBOUNCE_MS`, then reported as one batch of
 * absolute paths (changed, added or removed files).
 */
import fs from "node:fs";
import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
// The module of scan that loads no TypeScript (the entry does).
import { hashSourceFile } from "../scan/source-text.js";

/**
 * Quiet time before a batch is reported. It must be longer than the 50 ms in which chokidar
 * drops further `change` events of a file it just reported: a batch is then read only after any
 * write whose event was dropped.
 */
const DEBOUNCE_MS = 80;

/** Files TypeScript can load as sources, declarations or JSON modules. */
const LOADABLE = /\.(?:[cm]?[jt]sx?|json)$/;
/** Folders never watched, wherever they are. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

export interface WatchTarget {
  /** Folders to watch recursively (they need not exist yet). */
  readonly folders: readonly string[];
  /** Files to watch besides, wherever they are (they need not exist yet). */
  readonly files: readonly string[];
  /** A folder whose content is never watched (the output folder). */
  readonly ignore: string;
}

export interface InputWatcher {
  /**
   * Also watches these files (what a run read, with the hashes of the texts it read), if not yet
   * watched. Resolves once they are, after reporting those that changed since the run read them
   * (before they were watched), so that no change falls between the run and the watch.
   */
  track(inputs: ReadonlyMap<string, string | null>): Promise<void>;
  close(): Promise<void>;
}

export interface WatchHandlers {
  /** A batch of changed files (absolute, sorted). */
  readonly onChange: (changed: string[]) => void;
  readonly onError: (error: Error) => void;
}

/** Starts watching `target`; resolves once the initial scan is done. */
export async function watchInputs(
  target: WatchTarget,
  handlers: WatchHandlers,
): Promise<InputWatcher> {
  const folders = [...new Set(target.folders.map((folder) => path.resolve(folder)))];
  const ignore = path.resolve(target.ignore);
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let onClose = () => {};
  const whenClosed = new Promise<void>((resolve) => (onClose = resolve));
  const changed = (file: string) => {
    if (closed) return;
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = [...pending].sort();
      pending.clear();
      handlers.onChange(batch);
    }, DEBOUNCE_MS);
  };

  /** Files outside `folders` that are watched (each through its folder). */
  const watched = new Set<string>();
  /** The files of `paths` not watched yet, now counted as watched. */
  const claim = (paths: Iterable<string>) => {
    const fresh: string[] = [];
    for (const file of paths) {
      const resolved = path.resolve(file);
      if (
        watched.has(resolved) ||
        folders.some((folder) => isInside(folder, resolved)) ||
        isInside(ignore, resolved) ||
        underSkippedFolder(resolved)
      )
        continue;
      watched.add(resolved);
      fresh.push(resolved);
    }
    return fresh;
  };

  const watchers: FSWatcher[] = [];
  /** Starts one chokidar watcher; resolves once its initial scan is done (or watching stopped). */
  const start = async (
    paths: string[],
    ignored: (file: string, stats?: { isFile(): boolean }) => boolean,
  ) => {
    // Not `atomic`: it holds a removal back 100 ms to pair it with an add of the same name, which
    // the debounce does anyway, and the delay would split a rename into two batches.
    const watcher = watch(paths, {
      ignoreInitial: true,
      ignored,
      atomic: false,
      awaitWriteFinish: false,
      persistent: true,
    });
    watchers.push(watcher);
    watcher.on("all", (event, file) => {
      if (event === "add" || event === "change" || event === "unlink") changed(path.resolve(file));
    });
    watcher.on("error", (error) =>
      handlers.onError(error instanceof Error ? error : new Error(String(error))),
    );
    await Promise.race([
      new Promise<void>((resolve) => watcher.once("ready", () => resolve())),
      whenClosed,
    ]);
  };

  // The include folders and the files' folders are watched from themselves, or from their nearest
  // existing parent while they do not exist; on the way down to them, only what leads to them.
  const files = new Set(claim(target.files));
  const wanted = [...folders, ...[...files].map((file) => path.dirname(file))];
  const ignored = (file: string, stats?: { isFile(): boolean }) => {
    if (isInside(ignore, file)) return true;
    if (files.has(file)) return false;
    const folder = folders.find((candidate) => isInside(candidate, file));
    if (folder !== undefined) {
      if (
        path
          .relative(folder, file)
          .split(path.sep)
          .some((part) => SKIPPED_FOLDERS.has(part))
      )
        return true;
      return stats?.isFile() === true && !LOADABLE.test(file);
    }
    return !leadsTo(file, stats, wanted);
  };
  await start([...new Set(wanted.map(existingAncestor))], ignored);

  return {
    async track(inputs) {
      if (closed) return;
      const fresh = claim(inputs.keys());
      if (fresh.length === 0) return;
      const batch = new Set(fresh);
      const parents = [...new Set(fresh.map((file) => path.dirname(file)))];
      await start(
        [...new Set(parents.map(existingAncestor))],
        (file, stats) => !(batch.has(file) || leadsTo(file, stats, parents)),
      );
      for (const file of fresh) if (hashSourceFile(file) !== inputs.get(file)) changed(file);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      onClose();
      await Promise.all(watchers.map((watcher) => watcher.close()));
    },
  };
}

/** The folders the include globs start from: each glob's part before its first wildcard. */
export function includeFolders(include: readonly string[], root: string): string[] {
  return [...new Set(include.map((glob) => path.resolve(root, staticPrefix(glob))))];
}

function staticPrefix(glob: string): string {
  const parts = glob.split("/");
  const index = parts.findIndex((part) => /[*?[\]{}!()]/.test(part));
  return (index === -1 ? parts.slice(0, -1) : parts.slice(0, index)).join("/") || ".";
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Whether `file` is one of `folders` or a folder on the way to one. */
function leadsTo(
  file: string,
  stats: { isFile(): boolean } | undefined,
  folders: readonly string[],
): boolean {
  return stats?.isFile() !== true && folders.some((folder) => isInside(file, folder));
}

function underSkippedFolder(file: string): boolean {
  return file.split(path.sep).some((part) => SKIPPED_FOLDERS.has(part));
}

/** `folder`, or its nearest parent that exists. */
function existingAncestor(folder: string): string {
  let current = folder;
  while (!fs.existsSync(current) && path.dirname(current) !== current)
    current = path.dirname(current);
  return current;
}
