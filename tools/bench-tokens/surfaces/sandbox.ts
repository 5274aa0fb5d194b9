import { createCodeRunner, type PooledCodeRunner } from "@zcp/code";

/** The sandbox every code surface runs its programs in (so that they differ in API and protocol only). */
let sandbox: PooledCodeRunner | undefined;
export const programs = (): PooledCodeRunner => (sandbox ??= createCodeRunner());

/** Closes the sandbox, if a code surface started it. */
export async function closeSandbox(): Promise<void> {
  await sandbox?.close();
  sandbox = undefined;
}
