/**
 * The QuickJS engine: the WebAssembly module (the release-sync variant), compiled once per
 * thread and reused by every run, each of which gets its own runtime and context.
 *
 * The module gets a `WebAssembly.Memory` of its own whose maximum is its start size plus the
 * run's `memoryBytes`: that is the memory limit that holds. (This build has no
 * `malloc_usable_size`, so QuickJS's own malloc limit counts allocations, not their bytes: a
 * program growing one array is never stopped by it.) Past the maximum, malloc fails inside and
 * QuickJS throws its `out of memory`. A module whose run failed at the host level, or whose
 * runtime could not be disposed cleanly, is dropped and made again for the next run.
 */
import variant from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";

/** Node's `WebAssembly.Memory` (this project's lib has no WebAssembly types). */
const WasmMemory = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object };
  }
).WebAssembly.Memory;

const PAGE_BYTES = 65536;
/** The pages the module starts with (its data, its C stack, and a first heap). */
const START_PAGES = 256;

let loading: { memoryBytes: number; module: Promise<QuickJSWASMModule> } | undefined;

/** This thread's QuickJS module for runs of `memoryBytes` (made on first use). */
export function quickjs(memoryBytes: number): Promise<QuickJSWASMModule> {
  if (loading?.memoryBytes !== memoryBytes) {
    const memory = new WasmMemory({
      initial: START_PAGES,
      maximum: START_PAGES + Math.ceil(memoryBytes / PAGE_BYTES),
    });
    // The variant's types describe its CommonJS build; its ES module's default export is the variant.
    const base = variant as unknown as QuickJSSyncVariant;
    loading = {
      memoryBytes,
      module: newQuickJSWASMModuleFromVariant(
        newVariant(base, {
          wasmMemory: memory as CustomizeVariantOptions["wasmMemory"],
        }),
      ),
    };
  }
  return loading.module;
}

/** Forgets this thread's module: the next run makes a fresh one, with a fresh memory. */
export function discardQuickjs(): void {
  loading = undefined;
}
