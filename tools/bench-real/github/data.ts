/**
 * The fake GitHub's data: one repository (`acme/invoice-kit`) with issues, a pull request, a
 * file and a status, each as the REST API v3 writes it (every field GitHub sends for that kind of
 * object, with URLs on the fake's own base), so that what an original drops and what it passes
 * on weighs what it does against the real API.
 */
const GH = "https://github.com";

function user(api: string, login: string, id: number) {
  const url = `${api}/users/${login}`;
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url,
    html_url: `${GH}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: login === "acme" ? "Organization" : "User",
    user_view_type: "public",
    site_admin: false,
  };
}

export function repository(api: string) {
  const url = `${api}/repos/acme/invoice-kit`;
  // Every `*_url` of a repository: the key's name, then what follows the repository's URL.
  const templates = Object.fromEntries(
    [
      "forks",
      "keys{/key_id}",
      "collaborators{/collaborator}",
      "teams",
      "hooks",
      "issues/events{/number}:issue_events",
      "events",
      "assignees{/user}",
      "branches{/branch}",
      "tags",
      "git/blobs{/sha}:blobs",
      "git/tags{/sha}:git_tags",
      "git/refs{/sha}:git_refs",
      "git/trees{/sha}:trees",
      "statuses/{sha}:statuses",
      "languages",
      "stargazers",
      "contributors",
      "subscribers",
      "subscription",
      "commits{/sha}",
      "git/commits{/sha}:git_commits",
      "comments{/number}",
      "issues/comments{/number}:issue_comment",
      "contents/{+path}:contents",
      "compare/{base}...{head}:compare",
      "merges",
      "{archive_format}{/ref}:archive",
      "downloads",
      "issues{/number}",
      "pulls{/number}",
      "milestones{/number}",
      "notifications{?since,all,participating}",
      "labels{/name}",
      "releases{/id}",
      "deployments",
    ].map((entry) => {
      const [path, key] = entry.split(":") as [string, string | undefined];
      return [`${key ?? path.replace(/\{.*$/, "")}_url`, `${url}/${path}`];
    }),
  );
  return {
    id: 48213377,
    node_id: "R_kgDOLt9xgQ",
    name: "invoice-kit",
    full_name: "acme/invoice-kit",
    private: false,
    owner: user(api, "acme", 90210),
    html_url: `${GH}/acme/invoice-kit`,
    description: "Small helpers to total invoices and format amounts.",
    fork: false,
    url,
    ...templates,
    created_at: "2024-03-02T09:14:51Z",
    updated_at: "2026-11-30T16:02:11Z",
    pushed_at: "2026-12-01T08:45:39Z",
    git_url: "git://github.com/acme/invoice-kit.git",
    ssh_url: "git@github.com:acme/invoice-kit.git",
    clone_url: `${GH}/acme/invoice-kit.git`,
    svn_url: `${GH}/acme/invoice-kit`,
    homepage: null,
    size: 412,
    stargazers_count: 57,
    watchers_count: 57,
    language: "TypeScript",
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    has_discussions: false,
    forks_count: 9,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 4,
    license: {
      key: "mit",
      name: "MIT License",
      spdx_id: "MIT",
      url: `${api}/licenses/mit`,
      node_id: "MDc6TGljZW5zZTEz",
    },
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: ["invoices", "vat", "typescript"],
    visibility: "public",
    forks: 9,
    open_issues: 4,
    watchers: 57,
    default_branch: "main",
    score: 1,
  };
}

function label(api: string, id: number, name: string, color: string, description: string) {
  return {
    id,
    node_id: `LA_kwDOLt9xg8${id}`,
    url: `${api}/repos/acme/invoice-kit/labels/${encodeURIComponent(name)}`,
    name,
    color,
    default: name === "bug",
    description,
  };
}

const REACTIONS = {
  total_count: 0,
  "+1": 0,
  "-1": 0,
  laugh: 0,
  hooray: 0,
  confused: 0,
  heart: 0,
  rocket: 0,
  eyes: 0,
};

export interface IssueSeed {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly author: readonly [string, number];
  readonly labels: readonly string[];
  readonly comments: number;
  readonly created: string;
}

export const ISSUES: readonly IssueSeed[] = [
  {
    number: 42,
    title: "total() returns the VAT instead of the amount with VAT",
    body: "`total([{ amount: 100, vat: 0.2 }])` returns `20`, not `120`.\n\nThe loop in `src/util.ts` multiplies the amount by the rate instead of by `1 + rate`. Invoices sent since 1.4.0 show only the tax. The test in `src/util.test.ts` expects 120 and fails on main.",
    author: ["mlopez", 7731201],
    labels: ["bug", "priority: high"],
    comments: 2,
    created: "2026-11-28T10:31:07Z",
  },
  {
    number: 41,
    title: "formatAmount should accept a locale",
    body: "Customers in Germany expect `1.234,50 EUR`. Could `formatAmount` take an optional locale and use `Intl.NumberFormat`?",
    author: ["kfischer", 5510092],
    labels: ["enhancement"],
    comments: 1,
    created: "2026-11-20T14:02:44Z",
  },
  {
    number: 39,
    title: "Document rounding of VAT per line vs per invoice",
    body: "The guide does not say whether VAT is rounded per line or on the total. Both are legal in different countries; we should say which one we do.",
    author: ["ada-okafor", 3301847],
    labels: ["documentation"],
    comments: 0,
    created: "2026-11-11T08:19:26Z",
  },
];

const LABELS: Readonly<Record<string, readonly [number, string, string]>> = {
  bug: [6101, "d73a4a", "Something isn't working"],
  "priority: high": [6107, "b60205", "Fix before the next release"],
  enhancement: [6102, "a2eeef", "New feature or request"],
  documentation: [6103, "0075ca", "Improvements or additions to documentation"],
};

export function issue(api: string, seed: IssueSeed, extraComments = 0) {
  const url = `${api}/repos/acme/invoice-kit/issues/${seed.number}`;
  const [login, id] = seed.author;
  const author = user(api, login, id);
  return {
    url,
    repository_url: `${api}/repos/acme/invoice-kit`,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${GH}/acme/invoice-kit/issues/${seed.number}`,
    id: 2700000000 + seed.number,
    node_id: `I_kwDOLt9xg86h${seed.number}`,
    number: seed.number,
    title: seed.title,
    user: author,
    labels: seed.labels.map((name) =>
      label(api, LABELS[name]![0], name, LABELS[name]![1], LABELS[name]![2]),
    ),
    state: "open",
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: seed.comments + extraComments,
    created_at: seed.created,
    updated_at: "2026-12-01T09:12:40Z",
    closed_at: null,
    author_association: "CONTRIBUTOR",
    type: null,
    active_lock_reason: null,
    sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
    body: seed.body,
    closed_by: null,
    reactions: { url: `${url}/reactions`, ...REACTIONS },
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: null,
  };
}

export function comment(api: string, id: number, issueNumber: number, body: string) {
  const url = `${api}/repos/acme/invoice-kit/issues/comments/${id}`;
  return {
    url,
    html_url: `${GH}/acme/invoice-kit/issues/${issueNumber}#issuecomment-${id}`,
    issue_url: `${api}/repos/acme/invoice-kit/issues/${issueNumber}`,
    id,
    node_id: `IC_kwDOLt9xg86${id}`,
    user: user(api, "zcp-bench", 1000001),
    created_at: "2026-12-07T12:00:00Z",
    updated_at: "2026-12-07T12:00:00Z",
    author_association: "MEMBER",
    body,
    reactions: { url: `${url}/reactions`, ...REACTIONS },
    performed_via_github_app: null,
  };
}

export const UTIL_TS =
  "export interface Line {\n  amount: number;\n  vat: number;\n}\n\n/** The total of the lines, VAT included. */\nexport function total(lines: Line[]): number {\n  let sum = 0;\n  for (const line of lines) {\n    sum += line.amount * line.vat;\n  }\n  return sum;\n}\n";

export function fileContent(api: string, path: string, text: string) {
  const url = `${api}/repos/acme/invoice-kit/contents/${path}?ref=main`;
  const sha = "3f1c0a9b7d2e4c6f8a0b1c2d3e4f5a6b7c8d9e0f";
  return {
    name: path.slice(path.lastIndexOf("/") + 1),
    path,
    sha,
    size: Buffer.byteLength(text),
    url,
    html_url: `${GH}/acme/invoice-kit/blob/main/${path}`,
    git_url: `${api}/repos/acme/invoice-kit/git/blobs/${sha}`,
    download_url: `https://raw.githubusercontent.com/acme/invoice-kit/main/${path}`,
    type: "file",
    content: `${Buffer.from(text)
      .toString("base64")
      .replace(/(.{60})/g, "$1\n")}\n`,
    encoding: "base64",
    _links: {
      self: url,
      git: `${api}/repos/acme/invoice-kit/git/blobs/${sha}`,
      html: `${GH}/acme/invoice-kit/blob/main/${path}`,
    },
  };
}

const HEAD_SHA = "9b2e71c4a0d35f8e6c1b7a2d4f9e0c3b5a8d6f1e";

export function pull(api: string) {
  const url = `${api}/repos/acme/invoice-kit/pulls/43`;
  const repo = repository(api);
  const author = user(api, "mlopez", 7731201);
  const ref = (ref: string, sha: string) => ({
    label: `acme:${ref}`,
    ref,
    sha,
    user: user(api, "acme", 90210),
    repo,
  });
  return {
    url,
    id: 2211000043,
    node_id: "PR_kwDOLt9xg86DXa43",
    html_url: `${GH}/acme/invoice-kit/pull/43`,
    diff_url: `${GH}/acme/invoice-kit/pull/43.diff`,
    patch_url: `${GH}/acme/invoice-kit/pull/43.patch`,
    issue_url: `${api}/repos/acme/invoice-kit/issues/43`,
    number: 43,
    state: "open",
    locked: false,
    title: "Fix total(): add VAT to the amount",
    user: author,
    body: "Fixes #42. `total` now adds `amount * (1 + vat)` per line; the existing test passes.",
    created_at: "2026-11-29T07:55:02Z",
    updated_at: "2026-11-30T16:02:11Z",
    closed_at: null,
    merged_at: null,
    merge_commit_sha: "c0ffee5b2e71c4a0d35f8e6c1b7a2d4f9e0c3b5a",
    assignee: null,
    assignees: [],
    requested_reviewers: [user(api, "ada-okafor", 3301847)],
    requested_teams: [],
    labels: [],
    milestone: null,
    draft: false,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/repos/acme/invoice-kit/pulls/comments{/number}`,
    comments_url: `${api}/repos/acme/invoice-kit/issues/43/comments`,
    statuses_url: `${api}/repos/acme/invoice-kit/statuses/${HEAD_SHA}`,
    head: ref("fix-total-vat", HEAD_SHA),
    base: ref("main", "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"),
    _links: {
      self: { href: url },
      html: { href: `${GH}/acme/invoice-kit/pull/43` },
      issue: { href: `${api}/repos/acme/invoice-kit/issues/43` },
      comments: { href: `${api}/repos/acme/invoice-kit/issues/43/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${api}/repos/acme/invoice-kit/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${api}/repos/acme/invoice-kit/statuses/${HEAD_SHA}` },
    },
    author_association: "CONTRIBUTOR",
    auto_merge: null,
    active_lock_reason: null,
  };
}

export function pullFiles(api: string) {
  const blob = `${GH}/acme/invoice-kit/blob/${HEAD_SHA}/src/util.ts`;
  return [
    {
      sha: "5d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e",
      filename: "src/util.ts",
      status: "modified",
      additions: 1,
      deletions: 1,
      changes: 2,
      blob_url: blob,
      raw_url: blob.replace("/blob/", "/raw/"),
      contents_url: `${api}/repos/acme/invoice-kit/contents/src/util.ts?ref=${HEAD_SHA}`,
      patch:
        "@@ -7,7 +7,7 @@ export interface Line {\n export function total(lines: Line[]): number {\n   let sum = 0;\n   for (const line of lines) {\n-    sum += line.amount * line.vat;\n+    sum += line.amount * (1 + line.vat);\n   }\n   return sum;\n }",
    },
  ];
}

export function combinedStatus(api: string) {
  const check = (context: string, state: string, description: string, id: number) => ({
    url: `${api}/repos/acme/invoice-kit/statuses/${HEAD_SHA}`,
    avatar_url: "https://avatars.githubusercontent.com/oa/4?v=4",
    id,
    node_id: `SC_kwDOLt9xg8${id}`,
    state,
    description,
    target_url: `https://ci.acme.example/builds/${id}`,
    context,
    created_at: "2026-11-29T08:01:12Z",
    updated_at: "2026-11-29T08:03:40Z",
  });
  return {
    state: "success",
    statuses: [
      check("ci/test", "success", "All 14 tests passed", 90001),
      check("ci/lint", "success", "No problems", 90002),
    ],
    sha: HEAD_SHA,
    total_count: 2,
    repository: repository(api),
    commit_url: `${api}/repos/acme/invoice-kit/commits/${HEAD_SHA}`,
    url: `${api}/repos/acme/invoice-kit/commits/${HEAD_SHA}/status`,
  };
}
