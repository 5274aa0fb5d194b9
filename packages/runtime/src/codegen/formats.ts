/**
 * The string formats that generated validators check (the JSON Schema `format` keyword): the ten
 * formats `@format` accepts. Each checker is a small hand-written parser of the format's grammar
 * (RFC 3339 dates and times, ISO 8601 durations, RFC 5321-style addresses, RFC 1123 host names,
 * RFC 4291 and RFC 3986 addresses, RFC 4122 UUIDs), dependency-free and without regular
 * expressions built from other projects.
 *
 * Where those grammars leave room, the checkers accept what ajv-formats accepts in its default
 * ("full") mode, which is what schema-aware clients and providers usually run: a `t` or a blank
 * between date and time, offsets `+hh`, `+hhmm` or `+hh:mm`, a `urn:uuid:` prefix, single-label
 * host names. One deliberate difference: a leap second (`:60`) is only valid at 23:59 UTC with
 * an hour of at most 23 and a minute of at most 59, as RFC 3339 says.
 */

/** `format: date`: `YYYY-MM-DD`, a real calendar day (leap years included). */
export function isDate(value: string): boolean {
  if (value.length !== 10 || value.charCodeAt(4) !== DASH || value.charCodeAt(7) !== DASH)
    return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysIn(year, month);
}

/**
 * `format: time`: `hh:mm:ss[.fraction]` followed by a required offset (`Z`, `+hh`, `+hhmm`,
 * `+hh:mm`, or `-` instead of `+`); `ss` may be `60` for a leap second at 23:59 UTC.
 */
export function isTime(value: string): boolean {
  const n = value.length;
  if (n < 9 || value.charCodeAt(2) !== COLON || value.charCodeAt(5) !== COLON) return false;
  const hour = digits(value, 0, 2);
  const minute = digits(value, 3, 2);
  const second = digits(value, 6, 2);
  if (hour < 0 || minute < 0 || second < 0) return false;
  let i = 8;
  if (value.charCodeAt(i) === DOT) {
    const start = ++i;
    while (i < n && isDigit(value.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  // The offset, in minutes east of UTC.
  let offset: number;
  const sign = value.charCodeAt(i);
  if ((sign === 0x5a || sign === 0x7a) && i + 1 === n) {
    offset = 0;
  } else if (sign === PLUS || sign === DASH) {
    const rest = n - i - 1;
    const hours = digits(value, i + 1, 2);
    let minutes = 0;
    if (rest === 4) minutes = digits(value, i + 3, 2);
    else if (rest === 5 && value.charCodeAt(i + 3) === COLON) minutes = digits(value, i + 4, 2);
    else if (rest !== 2) return false;
    if (hours < 0 || minutes < 0 || hours > 23 || minutes > 59) return false;
    offset = (sign === PLUS ? 1 : -1) * (hours * 60 + minutes);
  } else {
    return false;
  }
  if (hour > 23 || minute > 59) return false;
  if (second < 60) return true;
  // A leap second: only as the last second of the UTC day.
  const utc = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
  return second === 60 && utc === 1439;
}

/**
 * `format: date-time`: a `date`, `T` (or `t`, or one white-space character), a `time`.
 */
export function isDateTime(value: string): boolean {
  if (value.length < 20) return false;
  const separator = value[10]!;
  if (separator !== "T" && separator !== "t" && !WHITE_SPACE.test(separator)) return false;
  return isDate(value.slice(0, 10)) && isTime(value.slice(11));
}

/**
 * `format: duration`: ISO 8601 `PnW`, or `P[nY][nM][nD][T[nH][nM][nS]]` with at least one
 * part, and at least one after `T`; whole numbers, upper-case designators.
 */
export function isDuration(value: string): boolean {
  if (value.charCodeAt(0) !== 0x50 /* P */) return false;
  const n = value.length;
  let allowed = "YMD";
  let time = false;
  let parts = 0;
  let timeParts = 0;
  for (let i = 1; i < n; i++) {
    if (value[i] === "T" && !time) {
      time = true;
      allowed = "HMS";
      continue;
    }
    const start = i;
    while (i < n && isDigit(value.charCodeAt(i))) i++;
    if (i === start || i === n) return false;
    const designator = value[i]!;
    // Weeks stand alone.
    if (designator === "W" && !time) {
      if (parts > 0 || i + 1 !== n) return false;
      parts++;
      continue;
    }
    // Designators come in order, each at most once.
    const at = allowed.indexOf(designator);
    if (at < 0) return false;
    allowed = allowed.slice(at + 1);
    parts++;
    if (time) timeParts++;
  }
  return parts > 0 && (!time || timeParts > 0);
}

/**
 * `format: email`: `local@domain`, the local part dot-separated runs of atext characters, the
 * domain two or more dot-separated labels of letters, digits and inner hyphens.
 */
export function isEmail(value: string): boolean {
  const at = value.indexOf("@");
  if (at < 1) return false;
  const local = value.slice(0, at);
  for (const atom of local.split(".")) {
    if (atom.length === 0) return false;
    for (let i = 0; i < atom.length; i++) if (!isAtext(atom.charCodeAt(i))) return false;
  }
  const labels = value.slice(at + 1).split(".");
  if (labels.length < 2) return false;
  for (const label of labels) if (!isLabel(label, Infinity)) return false;
  return true;
}

/**
 * `format: hostname`: dot-separated labels of 1 to 63 letters, digits and inner hyphens, at most
 * 253 characters (a final dot allowed on top).
 */
export function isHostname(value: string): boolean {
  const name = value.endsWith(".") ? value.slice(0, -1) : value;
  if (name.length === 0 || name.length > 253) return false;
  for (const label of name.split(".")) if (!isLabel(label, 63)) return false;
  return true;
}

/** `format: ipv4`: four decimal numbers 0 to 255 without leading zeros, separated by dots. */
export function isIpv4(value: string): boolean {
  return ipv4(value, false);
}

/**
 * `format: ipv6`: eight groups of 1 to 4 hex digits separated by colons; one `::` stands for one
 * or more zero groups; the last two groups may be written as an IPv4 address.
 */
export function isIpv6(value: string): boolean {
  return ipv6(value, false);
}

/**
 * `format: uri`: an absolute URI (RFC 3986 `scheme ":" hier-part ["?" query] ["#" fragment]`),
 * with a non-empty hier-part; percent-escapes must be complete; ASCII only.
 */
export function isUri(value: string): boolean {
  let i = 0;
  if (!isAlpha(value.charCodeAt(0))) return false;
  while (++i < value.length && isSchemeChar(value.charCodeAt(i)));
  if (value.charCodeAt(i) !== COLON) return false;
  let rest = value.slice(i + 1);
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    if (!allOf(rest.slice(hash + 1), QUERY)) return false;
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf("?");
  if (question >= 0) {
    if (!allOf(rest.slice(question + 1), QUERY)) return false;
    rest = rest.slice(0, question);
  }
  if (rest.length === 0) return false;
  // A path of segments: "/path", "//" with an empty authority, or "rootless:path".
  if (allOf(rest, PATH)) return true;
  if (rest.charCodeAt(0) !== SLASH) return false;
  // An authority after "//" (or after a single "/", as ajv-formats also accepts).
  return authorityAndPath(rest, 1) || (rest.charCodeAt(1) === SLASH && authorityAndPath(rest, 2));
}

/** `format: uuid`: `8-4-4-4-12` hex digits, optionally prefixed by `urn:uuid:`. */
export function isUuid(value: string): boolean {
  const text =
    value.length === 45 && value.slice(0, 9).toLowerCase() === "urn:uuid:" ? value.slice(9) : value;
  if (text.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const code = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23 ? code !== DASH : !isHex(code)) return false;
  }
  return true;
}

/** The checker of each format, by its JSON Schema name. */
export const FORMAT_CHECKERS: { readonly [format: string]: (value: string) => boolean } = {
  date: isDate,
  "date-time": isDateTime,
  duration: isDuration,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  time: isTime,
  uri: isUri,
  uuid: isUuid,
};

const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const PLUS = 0x2b;
const PERCENT = 0x25;
const WHITE_SPACE = /^\s$/;

/** The number written by `length` ASCII digits at `start`, or -1. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - 0x30);
  }
  return value;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isAlpha(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function isAlnum(code: number): boolean {
  return isDigit(code) || isAlpha(code);
}

function isSchemeChar(code: number): boolean {
  return isAlnum(code) || code === PLUS || code === DASH || code === DOT;
}

/** RFC 5322 atext: letters, digits and ``!#$%&'*+-/=?^_`{|}~``. */
function isAtext(code: number): boolean {
  return isAlnum(code) || "!#$%&'*+-/=?^_`{|}~".includes(String.fromCharCode(code));
}

/** A DNS label: letters, digits, hyphens not at either end, 1 to `max` characters. */
function isLabel(label: string, max: number): boolean {
  const n = label.length;
  if (n === 0 || n > max) return false;
  if (label.charCodeAt(0) === DASH || label.charCodeAt(n - 1) === DASH) return false;
  for (let i = 0; i < n; i++) {
    const code = label.charCodeAt(i);
    if (!isAlnum(code) && code !== DASH) return false;
  }
  return true;
}

/**
 * Four dot-separated decimal numbers up to 255. `leadingZeros`: RFC 3986's dec-octet in URIs
 * allows them (`010`), the `ipv4` format does not.
 */
function ipv4(text: string, leadingZeros: boolean): boolean {
  const parts = text.split(".");
  if (parts.length !== 4) return false;
  for (const part of parts) {
    if (part.length === 0 || part.length > 3) return false;
    const value = digits(part, 0, part.length);
    if (value < 0 || value > 255) return false;
    if (!leadingZeros && part.length > 1 && part.charCodeAt(0) === 0x30) return false;
  }
  return true;
}

/** An IPv6 address (RFC 4291 text form); `leadingZeros` applies to an embedded IPv4 part. */
function ipv6(text: string, leadingZeros: boolean): boolean {
  const gap = text.indexOf("::");
  if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) return false;
  if (gap < 0) return groups(text, true, leadingZeros) === 8;
  const head = groups(text.slice(0, gap), false, leadingZeros);
  const tail = groups(text.slice(gap + 2), true, leadingZeros);
  return head >= 0 && tail >= 0 && head + tail <= 7;
}

/**
 * The number of 16-bit groups in colon-separated `text` ("" has none), an IPv4 part counting
 * two (only last, and only where `ipv4Last`), or -1 when malformed.
 */
function groups(text: string, ipv4Last: boolean, leadingZeros: boolean): number {
  if (text.length === 0) return 0;
  const parts = text.split(":");
  let count = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (ipv4Last && p === parts.length - 1 && part.includes(".")) {
      if (!ipv4(part, leadingZeros)) return -1;
      count += 2;
      continue;
    }
    if (part.length === 0 || part.length > 4) return -1;
    for (let i = 0; i < part.length; i++) if (!isHex(part.charCodeAt(i))) return -1;
    count++;
  }
  return count;
}

/** Character classes of RFC 3986, as bits over ASCII. */
const UNRESERVED = 1;
const SUB_DELIMS = 2;
const COLON_BIT = 4;
const AT_BIT = 8;
const SLASH_BIT = 16;
const QUESTION_BIT = 32;
const CLASSES = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if (isAlnum(code) || "-._~".includes(String.fromCharCode(code))) CLASSES[code] = UNRESERVED;
}
for (const ch of "!$&'()*+,;=") CLASSES[ch.charCodeAt(0)] = SUB_DELIMS;
CLASSES[COLON] = COLON_BIT;
CLASSES[0x40] = AT_BIT;
CLASSES[SLASH] = SLASH_BIT;
CLASSES[0x3f] = QUESTION_BIT;

/** reg-name: unreserved, sub-delims (and percent-escapes). */
const REG_NAME = UNRESERVED | SUB_DELIMS;
/** userinfo: reg-name and ":". */
const USERINFO = REG_NAME | COLON_BIT;
/** A path: pchar (userinfo and "@") and "/". */
const PATH = USERINFO | AT_BIT | SLASH_BIT;
/** A query or fragment: a path and "?". */
const QUERY = PATH | QUESTION_BIT;

/** True when every character of `text` is in `classes`, or starts a percent-escape where allowed. */
function allOf(text: string, classes: number, percent = true): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === PERCENT && percent) {
      if (!isHex(text.charCodeAt(i + 1)) || !isHex(text.charCodeAt(i + 2))) return false;
      i += 2;
    } else if (code >= 128 || (CLASSES[code]! & classes) === 0) {
      return false;
    }
  }
  return true;
}

/** `[userinfo "@"] host [":" port]` from `start` to the next "/", then a path of segments. */
function authorityAndPath(text: string, start: number): boolean {
  let end = text.indexOf("/", start);
  if (end < 0) end = text.length;
  if (!allOf(text.slice(end), PATH)) return false;
  let authority = text.slice(start, end);
  const at = authority.indexOf("@");
  if (at >= 0) {
    if (!allOf(authority.slice(0, at), USERINFO)) return false;
    authority = authority.slice(at + 1);
  }
  let port: string;
  if (authority.charCodeAt(0) === 0x5b /* [ */) {
    const close = authority.indexOf("]");
    if (close < 0 || !ipLiteral(authority.slice(1, close))) return false;
    port = authority.slice(close + 1);
    if (port.length > 0 && port.charCodeAt(0) !== COLON) return false;
    port = port.slice(1);
  } else {
    const colon = authority.indexOf(":");
    const host = colon < 0 ? authority : authority.slice(0, colon);
    if (!allOf(host, REG_NAME)) return false;
    port = colon < 0 ? "" : authority.slice(colon + 1);
  }
  for (let i = 0; i < port.length; i++) if (!isDigit(port.charCodeAt(i))) return false;
  return true;
}

/** An IP-literal's inside: an IPv6 address (RFC 3986 flavour) or `v` hex "." text. */
function ipLiteral(text: string): boolean {
  if (text.charCodeAt(0) === 0x76 || text.charCodeAt(0) === 0x56) {
    const dot = text.indexOf(".");
    if (dot < 2) return false;
    for (let i = 1; i < dot; i++) if (!isHex(text.charCodeAt(i))) return false;
    return dot + 1 < text.length && allOf(text.slice(dot + 1), USERINFO, false);
  }
  return ipv6(text, true);
}
