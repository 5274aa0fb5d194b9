/**
 * The everything server's task: a tour of what its tools demonstrate. `get-env` is left out: its
 * answer is the environment of the process that serves it, which differs between an original
 * (a child with its own environment) and a port (this process), so the two are not comparable.
 * The agent shows the user every result, so it reads each one whole.
 */
import type { Script } from "../script.ts";

export const everythingScript: Script = {
  server: "everything",
  task: "Show me what this demo server can do: echo a greeting, add two numbers, get Chicago's weather, a success message, a resource and links to others, a short long-running operation and the logo.",
  steps: [
    { tool: "echo", args: { message: "Hello from the payments team" }, needs: "all" },
    { tool: "get-sum", args: { a: 1234, b: 5678 }, needs: "all" },
    { tool: "get-structured-content", args: { location: "Chicago" }, needs: "all" },
    { tool: "get-annotated-message", args: { messageType: "success" }, needs: "all" },
    {
      tool: "get-resource-reference",
      args: { resourceType: "Text", resourceId: 2 },
      needs: "all",
    },
    { tool: "get-resource-links", args: { count: 3 }, needs: "all" },
    { tool: "trigger-long-running-operation", args: { duration: 0.2, steps: 2 }, needs: "all" },
    { tool: "get-tiny-image", args: {}, needs: "all" },
  ],
};
