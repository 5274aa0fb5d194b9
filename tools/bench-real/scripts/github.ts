/**
 * The github server's task: triage the open bug about VAT totals in `acme/invoice-kit` (served
 * by the local fake): find the repository, list its open issues, read the bug and the code it
 * names, look at the open fix and its checks, and say so on the issue.
 */
import type { Script } from "../script.ts";

const repo = { owner: "acme", repo: "invoice-kit" };

export const githubScript: Script = {
  server: "github",
  task: "Our invoice totals are wrong since 1.4.0. Find the bug report in acme's invoice-kit repository, check the code and whether a fix is under way, and tell the reporter where it stands.",
  steps: [
    { tool: "search_repositories", args: { query: "invoice-kit user:acme" }, needs: "all" },
    { tool: "list_issues", args: { ...repo, state: "open" }, needs: "all" },
    // The bug among the issues listed.
    { tool: "get_issue", args: { ...repo, issue_number: 42 }, needs: "all", decision: true },
    // The file the issue names.
    {
      tool: "get_file_contents",
      args: { ...repo, path: "src/util.ts" },
      needs: "all",
      decision: true,
    },
    { tool: "list_pull_requests", args: { ...repo, state: "open" }, needs: "all" },
    // The fix among the pull requests listed.
    {
      tool: "get_pull_request_files",
      args: { ...repo, pull_number: 43 },
      needs: "all",
      decision: true,
    },
    { tool: "get_pull_request_status", args: { ...repo, pull_number: 43 }, needs: "all" },
    // What the agent read of the code, the fix and its checks.
    {
      decision: true,
      tool: "add_issue_comment",
      args: {
        ...repo,
        issue_number: 42,
        body: "Confirmed: `total` multiplies by the rate instead of `1 + rate`. #43 fixes it and its checks pass; it waits for a review.",
      },
    },
  ],
};
