/**
 * The format checkers of generated validators against their oracle, ajv-formats in its default
 * ("full") mode: hand-picked valid and invalid values per format (with the verdict we expect),
 * then thousands of deterministic near-misses (valid values with a character inserted, removed
 * or replaced by one from the format's alphabet). Zero disagreements, except the one documented
 * in formats.ts (a leap second written with an out-of-range hour or minute), tested on its own.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { FORMAT_CHECKERS, isTime } from "../src/codegen/formats.js";
import { mulberry32 as random } from "../../../tools/test-random.js";

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, strictTuples: false });
addFormats.default(ajv);

const EXAMPLES: { [format: string]: { valid: string[]; invalid: string[] } } = {
  date: {
    valid: ["2024-02-29", "2000-02-29", "1999-12-31", "0000-01-01", "2023-04-30", "9999-12-31"],
    invalid: [
      "2023-02-29",
      "1900-02-29",
      "2024-13-01",
      "2024-00-10",
      "2024-01-00",
      "2024-04-31",
      "2024-1-01",
      "24-01-01",
      "2024/01/01",
      "2024-01-01 ",
      "２０２４-01-01",
      "",
    ],
  },
  time: {
    valid: [
      "10:00:00Z",
      "23:59:59z",
      "00:00:00.000001+01:00",
      "12:30:15-05:30",
      "10:00:00+0100",
      "10:00:00+01",
      "23:59:60Z",
      "00:59:60+01:00",
      "22:59:60.5-01:00",
    ],
    invalid: [
      "10:00:00",
      "24:00:00Z",
      "12:60:00Z",
      "12:00:61Z",
      "12:00:60Z",
      "10:00:00+01:",
      "10:00:00+24:00",
      "10:00:00+01:60",
      "10:00Z",
      "10:00:00.Z",
      "1:00:00Z",
      "10:00:00 Z",
      "10:00:00UTC",
    ],
  },
  "date-time": {
    valid: [
      "2024-01-01T10:00:00Z",
      "2024-01-01t10:00:00z",
      "2024-01-01 10:00:00+02:00",
      "2016-12-31T23:59:60Z",
      "2024-02-29T00:00:00.5-08:00",
    ],
    invalid: [
      "2024-01-01T10:00:00",
      "2024-01-01",
      "2024-01-01TT10:00:00Z",
      "2024-02-30T10:00:00Z",
      "2024-01-01X10:00:00Z",
      "2024-01-01T25:00:00Z",
      " 2024-01-01T10:00:00Z",
    ],
  },
  duration: {
    valid: [
      "P1D",
      "PT1H",
      "P1W",
      "P1Y2M3DT4H5M6S",
      "PT0S",
      "P10Y",
      "PT36H",
      "P1M",
      "PT1M",
      "P1DT1S",
    ],
    invalid: [
      "P",
      "PT",
      "P1DT",
      "P1Y1W",
      "P1W1D",
      "PT1S1M",
      "P1M1Y",
      "p1d",
      "P1.5D",
      "1D",
      "P-1D",
      "PT1H1H",
      "P1DT1D",
      "P1H",
    ],
  },
  email: {
    valid: [
      "a@b.co",
      "first.last@example.com",
      "x+tag@sub.domain.org",
      "A!#$%&'*+/=?^_`{|}~-@x.y",
      "1@2.3",
      "a@b-c.d",
    ],
    invalid: [
      "a@b",
      "@b.co",
      "a@.co",
      "a.@b.co",
      ".a@b.co",
      "a..b@c.d",
      "a@-b.co",
      "a@b-.co",
      "a b@c.d",
      "a@b@c.d",
      "a@b..c",
      "é@b.co",
      "",
    ],
  },
  hostname: {
    valid: [
      "localhost",
      "example.com",
      "a-b.c-d.e",
      "a.",
      "1.2.3.4",
      "xn--bcher-kva.example",
      `${"a".repeat(63)}.com`,
      `${"a.".repeat(126)}a`,
    ],
    invalid: [
      "",
      ".",
      "a..b",
      "-a.com",
      "a-.com",
      "a_b.com",
      `${"a".repeat(64)}.com`,
      `${"ab.".repeat(85)}`,
      "a b",
      "é.com",
    ],
  },
  ipv4: {
    valid: ["0.0.0.0", "1.2.3.4", "255.255.255.255", "192.168.0.1", "10.0.0.10"],
    invalid: [
      "256.0.0.1",
      "01.2.3.4",
      "1.2.3",
      "1.2.3.4.5",
      "1.2.3.-4",
      "1..2.3",
      "a.b.c.d",
      "1.2.3.4 ",
      "",
    ],
  },
  ipv6: {
    valid: [
      "::",
      "::1",
      "1::",
      "1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:7::",
      "::2:3:4:5:6:7:8",
      "fe80::1",
      "::ffff:192.168.0.1",
      "1:2:3:4:5:6:1.2.3.4",
      "ABCD:EF01::1",
      "1::2:3:4:5:6:7",
    ],
    invalid: [
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      ":::1",
      "1:2:3:4:5:6:7:8::",
      "::ffff:01.2.3.4",
      "12345::",
      "g::1",
      "1:2:3:4:5:6:7",
      "::1.2.3",
      "1.2.3.4",
      "fe80::1%eth0",
      "[::1]",
      "",
    ],
  },
  uri: {
    valid: [
      "http://example.com",
      "https://user:pw@host:8080/p/a/t/h?query=1&b#frag",
      "mailto:a@b.co",
      "urn:isbn:0451450523",
      "x:/",
      "file:///etc/hosts",
      "http://[::1]:80/",
      "http://[v1.fe]/",
      "a+b-c.d:e",
      "x://",
      "x:a%20b",
      "x:/[::1]",
      "http://host:abc",
    ],
    invalid: [
      "example.com",
      "/relative/path",
      "x:",
      "1x:a",
      "x:?q",
      "http://a b",
      "x:%4",
      "x:%zz",
      "x://[::1",
      "x://[::g]",
      "x:é",
      "x:a#b#c",
      "http://exa mple.com",
      "x:a\\b",
    ],
  },
  uuid: {
    valid: [
      "123e4567-e89b-12d3-a456-426614174000",
      "00000000-0000-0000-0000-000000000000",
      "ABCDEF12-3456-7890-ABCD-EF1234567890",
      "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
      "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
    ],
    invalid: [
      "123e4567e89b12d3a456426614174000",
      "123e4567-e89b-12d3-a456-42661417400",
      "123e4567-e89b-12d3-a456-4266141740000",
      "g23e4567-e89b-12d3-a456-426614174000",
      "{123e4567-e89b-12d3-a456-426614174000}",
      "urn:uuid:",
      "",
    ],
  },
};

/** Characters near-misses are made of, per format. */
const ALPHABETS: { [format: string]: string } = {
  date: "0123456789-",
  time: "0123456789:.+-zZ",
  "date-time": "0123456789:.+-TtZz ",
  duration: "PYMWDTHS0123456789.",
  email: "ab.@-_+Z1",
  hostname: "ab.-1Z_",
  ipv4: "0123456789.",
  ipv6: "0123456789abcdef:.",
  uri: "ab:/?#@[]%1.+-v ",
  uuid: "0123456789abcdefg-:urn",
};

/** What ajv-formats accepts and formats.ts deliberately does not (see its header comment). */
function knownDifference(format: string, value: string): boolean {
  if (format !== "time" && format !== "date-time") return false;
  const time = format === "time" ? value : value.slice(11);
  const match = /^(\d\d):(\d\d):60/.exec(time);
  return match !== null && (Number(match[1]) > 23 || Number(match[2]) > 59);
}

const compiled = new Map(
  Object.keys(FORMAT_CHECKERS).map((format) => [format, ajv.compile({ type: "string", format })]),
);

describe("format checkers", () => {
  it("cover exactly the ten formats of @format", () => {
    expect(Object.keys(FORMAT_CHECKERS).sort()).toEqual([
      "date",
      "date-time",
      "duration",
      "email",
      "hostname",
      "ipv4",
      "ipv6",
      "time",
      "uri",
      "uuid",
    ]);
  });

  for (const [format, { valid, invalid }] of Object.entries(EXAMPLES)) {
    it(`${format}: hand-picked values, as expected and as ajv-formats says`, () => {
      const check = FORMAT_CHECKERS[format]!;
      const oracle = compiled.get(format)!;
      for (const value of valid) {
        expect(check(value), `${format} should accept ${JSON.stringify(value)}`).toBe(true);
        expect(oracle(value), `ajv-formats ${format} ${JSON.stringify(value)}`).toBe(true);
      }
      for (const value of invalid) {
        expect(check(value), `${format} should reject ${JSON.stringify(value)}`).toBe(false);
        expect(oracle(value), `ajv-formats ${format} ${JSON.stringify(value)}`).toBe(false);
      }
    });
  }

  it("agree with ajv-formats on 30,000 near-misses of valid values", () => {
    const next = random(20261130);
    const counts: { [format: string]: { accepted: number; rejected: number } } = {};
    const disagreements: string[] = [];
    for (const [format, { valid }] of Object.entries(EXAMPLES)) {
      const check = FORMAT_CHECKERS[format]!;
      const oracle = compiled.get(format)!;
      const alphabet = ALPHABETS[format]!;
      const count = (counts[format] = { accepted: 0, rejected: 0 });
      for (let i = 0; i < 3000; i++) {
        let value = valid[Math.floor(next() * valid.length)]!;
        for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
          const at = Math.floor(next() * (value.length + 1));
          const ch = alphabet[Math.floor(next() * alphabet.length)]!;
          const kind = next();
          if (kind < 0.4) value = value.slice(0, at) + ch + value.slice(at + 1);
          else if (kind < 0.7) value = value.slice(0, at) + ch + value.slice(at);
          else value = value.slice(0, at) + value.slice(at + 1);
        }
        if (knownDifference(format, value)) continue;
        const ours = check(value);
        if (ours !== oracle(value))
          disagreements.push(`${format} ${JSON.stringify(value)}: ours ${ours}`);
        if (ours) count.accepted++;
        else count.rejected++;
      }
    }
    expect(disagreements).toEqual([]);
    // Enough of both verdicts to mean something.
    for (const [format, count] of Object.entries(counts)) {
      expect(count.accepted, format).toBeGreaterThan(50);
      expect(count.rejected, format).toBeGreaterThan(500);
    }
  });

  it("agree with ajv-formats on 20,000 values built from the formats' parts, in and out of range", () => {
    const next = random(7);
    const int = (n: number) => Math.floor(next() * n);
    const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
    const pad = (n: number, width: number) => String(n).padStart(width, "0");
    const hex = (n: number) =>
      Array.from({ length: n }, () => pick([..."0123456789abcdefABCDEF"])).join("");
    const octet = () =>
      pick([String(int(256)), String(int(300)), pad(int(100), 2), pad(int(256), 3), "0"]);
    const ipv4 = () => Array.from({ length: pick([4, 4, 4, 3, 5]) }, octet).join(".");
    const ipv6 = () => {
      const groups = Array.from({ length: int(10) }, () => hex(1 + int(pick([4, 4, 5]))));
      if (next() < 0.3) groups.push(ipv4());
      if (next() < 0.6) groups.splice(int(groups.length + 1), 0, "");
      let text = groups.join(":");
      if (text.startsWith(":") && !text.startsWith("::")) text = `:${text}`;
      if (text.endsWith(":") && !text.endsWith("::")) text += ":";
      return text;
    };
    const label = () => Array.from({ length: int(8) }, () => pick([..."abz09-"])).join("") || "a";
    const host = () => Array.from({ length: 1 + int(4) }, label).join(".");
    const date = () => `${pad(int(3000), 4)}-${pad(int(14), 2)}-${pad(int(33), 2)}`;
    const time = () => {
      const fraction = next() < 0.3 ? `.${int(1000)}` : "";
      const zone = pick([
        "Z",
        "z",
        "",
        `+${pad(int(26), 2)}:${pad(int(62), 2)}`,
        `-${pad(int(24), 2)}${pad(int(60), 2)}`,
        `+${pad(int(24), 2)}`,
      ]);
      return `${pad(pick([int(25), 23, 0]), 2)}:${pad(pick([int(61), 59]), 2)}:${pad(pick([int(62), 59, 60]), 2)}${fraction}${zone}`;
    };
    const builders: { [format: string]: () => string } = {
      date,
      time,
      "date-time": () => `${date()}${pick(["T", "t", " ", "_", "\t"])}${time()}`,
      duration: () => {
        let text = "P";
        for (const unit of "YMWD") if (next() < 0.3) text += `${int(40)}${unit}`;
        if (next() < 0.5) {
          text += "T";
          for (const unit of "HMS") if (next() < 0.4) text += `${int(99)}${unit}`;
        }
        return next() < 0.1 ? text.toLowerCase() : text;
      },
      email: () =>
        `${Array.from({ length: 1 + int(3) }, () => label().replace(/-/g, pick(["+", "_", "-"]))).join(pick([".", ".", ".."]))}@${host()}`,
      hostname: () =>
        (next() < 0.1 ? `${"a".repeat(60 + int(8))}.${host()}` : host()) +
        (next() < 0.2 ? "." : ""),
      ipv4,
      ipv6,
      uri: () => {
        const scheme = pick(["http", "https", "x", "urn", "a+b.c-d", "1x", ""]);
        const authority = pick([
          "",
          `//${host()}`,
          `//${host()}:${int(9000)}`,
          `//u:p@${host()}`,
          `//[${ipv6()}]`,
          `//[v1.${label()}]`,
          "/",
          `//${host()}:x`,
        ]);
        const path = Array.from({ length: int(4) }, () =>
          pick([label(), "%20", "%2", "a:b", "@", "[", " ", ""]),
        ).join("/");
        const query = next() < 0.3 ? `?${label()}=${pick([label(), "/?", "#"])}` : "";
        const fragment = next() < 0.2 ? `#${pick([label(), "a#b", "/x?"])}` : "";
        return `${scheme}:${authority}${authority && path ? "/" : ""}${path}${query}${fragment}`;
      },
      uuid: () =>
        `${pick(["", "", "urn:uuid:", "URN:UUID:", "urn:"])}${hex(8)}-${hex(4)}-${hex(pick([4, 3]))}-${hex(4)}-${hex(pick([12, 12, 11]))}`,
    };
    const disagreements: string[] = [];
    const accepted: { [format: string]: number } = {};
    for (const [format, build] of Object.entries(builders)) {
      accepted[format] = 0;
      for (let i = 0; i < 2000; i++) {
        const value = build();
        if (knownDifference(format, value)) continue;
        const ours = FORMAT_CHECKERS[format]!(value);
        if (ours !== compiled.get(format)!(value))
          disagreements.push(`${format} ${JSON.stringify(value)}: ours ${ours}`);
        if (ours) accepted[format]++;
      }
    }
    expect(disagreements).toEqual([]);
    for (const [format, count] of Object.entries(accepted)) {
      expect(count, format).toBeGreaterThan(100);
      expect(count, format).toBeLessThan(1900);
    }
  });

  it("allow a leap second only at 23:59 UTC with a real hour and minute (stricter than ajv-formats)", () => {
    expect(isTime("23:59:60Z")).toBe(true);
    expect(isTime("00:29:60+00:30")).toBe(true);
    // ajv-formats accepts these two; RFC 3339 has no hour 24 or minute 60.
    expect(compiled.get("time")!("24:00:60+00:01")).toBe(true);
    expect(isTime("24:00:60+00:01")).toBe(false);
    expect(isTime("23:60:60+00:01")).toBe(false);
  });
});
