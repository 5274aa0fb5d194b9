/**
 * Content a tool returns instead of a JSON value: text, an image, audio, an embedded resource or
 * a link to a resource, one block or an array of them, as MCP content blocks. A tool author
 * makes them with the helpers here (`image(bytes, "image/png")`), whose branded return types
 * `zcp gen` recognises in the tool's return type and records in its definition (`content`);
 * the call pipeline then checks the returned value against that kind (`readContent`), without
 * guessing from the value what it is. Binary data is base64 on the wire, as MCP carries it.
 */
import type { CONTENT_BRAND } from "../definition/brands.js";
import type { ContentKind } from "../definition/registry.js";
import { clip } from "./clip.js";

/** A text block. */
export type TextBlock = { readonly type: "text"; readonly text: string };
/** An image: base64 `data` and an `image/*` type. */
export type ImageBlock = {
  readonly type: "image";
  readonly data: string;
  readonly mimeType: string;
};
/** Audio: base64 `data` and an `audio/*` type. */
export type AudioBlock = {
  readonly type: "audio";
  readonly data: string;
  readonly mimeType: string;
};
/** The contents of an embedded resource: its text, or its bytes as base64 `blob`. */
export type ResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
/** A resource embedded in the result. */
export type EmbeddedResourceBlock = {
  readonly type: "resource";
  readonly resource: ResourceContents;
};
/** A link to a resource the client may read (or not). */
export type ResourceLinkBlock = { readonly type: "resource_link" } & ResourceLinkFields;
/** MCP's content blocks, as a content result carries them. */
export type ContentBlock =
  TextBlock | ImageBlock | AudioBlock | EmbeddedResourceBlock | ResourceLinkBlock;

/** What `resourceLink` takes: MCP's `ResourceLink` fields. */
export type ResourceLinkFields = {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** The resource's size in bytes, when known. */
  readonly size?: number;
};

// The types a tool returns: each block branded with its kind, for `zcp gen` (type-only: the
// value is the plain block). Interfaces, so that the generator meets them as object types.
/** A text block, made by `text()`. */
export interface Text extends TextBlock {
  readonly [CONTENT_BRAND]: "text";
}
/** An image block, made by `image()`. */
export interface Image extends ImageBlock {
  readonly [CONTENT_BRAND]: "image";
}
/** An audio block, made by `audio()`. */
export interface Audio extends AudioBlock {
  readonly [CONTENT_BRAND]: "audio";
}
/** An embedded resource block, made by `embeddedResource()`. */
export interface EmbeddedResource extends EmbeddedResourceBlock {
  readonly [CONTENT_BRAND]: "resource";
}
/** A resource link block, made by `resourceLink()`. */
export interface ResourceLink extends ResourceLinkBlock {
  readonly [CONTENT_BRAND]: "resource_link";
}
/** Any one content block; a tool returning `Content[]` answers blocks of any kinds. */
export type Content = Text | Image | Audio | EmbeddedResource | ResourceLink;

/** Bytes of one image, audio or blob at most (16 MiB of base64). */
export const MAX_MEDIA_BYTES = 12 * 1024 * 1024;
const MAX_URI = 8192;
const MAX_MIME = 255;
const MAX_NAME = 1024;
const MAX_DESCRIPTION = 65_536;
/** Blocks in one content result at most. */
const MAX_BLOCKS = 1024;

const TOKEN = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*";
const MIME = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\]*"))*$`);
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** What a content helper throws for a bad argument, and the pipeline answers for a bad result. */
export class ContentError extends TypeError {
  override name = "ContentError";
}

/** A text block (for a `Content[]` result; a tool that answers only text returns a `string`). */
export function text(value: string): Text {
  return made({ type: "text", text: value }) as Text;
}

/** An image block: `data` as bytes or as base64 text, `mimeType` an `image/*` type. */
export function image(data: Uint8Array | string, mimeType: string): Image {
  return made({ type: "image", data: base64(data, "image"), mimeType }) as Image;
}

/** An audio block: `data` as bytes or as base64 text, `mimeType` an `audio/*` type. */
export function audio(data: Uint8Array | string, mimeType: string): Audio {
  return made({ type: "audio", data: base64(data, "audio"), mimeType }) as Audio;
}

/** An embedded resource: its `text`, or its `blob` as bytes or base64 text. */
export function embeddedResource(
  resource:
    | { readonly uri: string; readonly mimeType?: string; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string; readonly blob: Uint8Array | string },
): EmbeddedResource {
  const contents =
    "blob" in resource ? { ...resource, blob: base64(resource.blob, "resource") } : resource;
  return made({ type: "resource", resource: contents }) as EmbeddedResource;
}

/** A link to a resource, by its URI and name (a title, description, type and size optional). */
export function resourceLink(link: ResourceLinkFields): ResourceLink {
  return made({ type: "resource_link", ...link }) as ResourceLink;
}

/** Blocks for a `Content[]` result: each string becomes a text block. */
export function content(...parts: readonly (string | Content)[]): Content[] {
  return parts.map((part) => (typeof part === "string" ? text(part) : part));
}

/**
 * The blocks a tool of content `kind` answered, copied field by field (nothing else goes on the
 * wire), or a `ContentError` saying what is wrong and where. `kind` is the definition's: a
 * value is never taken for content because of its shape.
 */
export function readContent(kind: ContentKind, value: unknown): ContentBlock[] {
  if (kind !== "content") return [readBlock(value, kind, kind)];
  if (!Array.isArray(value)) throw new ContentError("content: expected an array of blocks");
  if (value.length > MAX_BLOCKS)
    throw new ContentError(`content: ${value.length} blocks; at most ${MAX_BLOCKS}`);
  return value.map((block: unknown, at) => readBlock(block, `content[${at}]`, null));
}

/** A helper's block, checked as the pipeline will check it: a bad argument throws where it is made. */
function made(block: ContentBlock): ContentBlock {
  return readBlock(block, block.type, block.type);
}

/** `data` as base64: bytes encoded, text checked. */
function base64(data: Uint8Array | string, at: string): string {
  if (data instanceof Uint8Array) {
    if (data.byteLength > MAX_MEDIA_BYTES)
      throw new ContentError(`${at}: ${data.byteLength} bytes; at most ${MAX_MEDIA_BYTES}`);
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
  }
  return data;
}

type Fields = { readonly [key: string]: unknown };

/**
 * One block, checked and copied: of type `kind` when one is given; `at` names it in a
 * `ContentError`. A tool's result and a prompt's message (features/) are read by it alike.
 */
export function readBlock(value: unknown, at: string, kind: ContentKind | null): ContentBlock {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ContentError(`${at}: expected a content block`);
  const block = value as Fields;
  if (kind !== null && block.type !== kind)
    throw new ContentError(`${at}: expected a block of type "${kind}"`);
  switch (block.type) {
    case "text":
      return { type: "text", text: str(block, "text", at, Infinity) };
    case "image":
    case "audio": {
      const mimeType = mime(block, at);
      if (!mimeType.toLowerCase().startsWith(`${block.type}/`))
        throw new ContentError(`${at}: mimeType "${clip(mimeType)}" is not an ${block.type} type`);
      return { type: block.type, data: data(block, "data", at), mimeType };
    }
    case "resource":
      return { type: "resource", resource: resourceContents(block.resource, at) };
    case "resource_link":
      return {
        type: "resource_link",
        uri: uri(block, at),
        name: str(block, "name", at, MAX_NAME),
        ...optional(block, "title", at, MAX_NAME),
        ...optional(block, "description", at, MAX_DESCRIPTION),
        ...(block.mimeType === undefined ? {} : { mimeType: mime(block, at) }),
        ...(block.size === undefined ? {} : { size: size(block.size, at) }),
      };
    default:
      throw new ContentError(`${at}: unknown block type ${clip(JSON.stringify(block.type) ?? "")}`);
  }
}

function resourceContents(value: unknown, at: string): ResourceContents {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ContentError(`${at}: expected a resource with a uri and a text or blob`);
  const resource = value as Fields;
  const head = {
    uri: uri(resource, at),
    ...(resource.mimeType === undefined ? {} : { mimeType: mime(resource, at) }),
  };
  if ((resource.text === undefined) === (resource.blob === undefined))
    throw new ContentError(`${at}: a resource has a text or a blob, one of them`);
  return resource.text !== undefined
    ? { ...head, text: str(resource, "text", at, Infinity) }
    : { ...head, blob: data(resource, "blob", at) };
}

function str(fields: Fields, key: string, at: string, max: number): string {
  const value = fields[key];
  if (typeof value !== "string") throw new ContentError(`${at}: ${key} must be a string`);
  if (value.length > max)
    throw new ContentError(`${at}: ${key} has ${value.length} characters; at most ${max}`);
  return value;
}

function optional(fields: Fields, key: string, at: string, max: number): Fields {
  return fields[key] === undefined ? {} : { [key]: str(fields, key, at, max) };
}

function mime(fields: Fields, at: string): string {
  const value = str(fields, "mimeType", at, MAX_MIME);
  if (!MIME.test(value))
    throw new ContentError(`${at}: mimeType "${clip(value)}" is not a media type (type/subtype)`);
  return value;
}

function uri(fields: Fields, at: string): string {
  const value = str(fields, "uri", at, MAX_URI);
  if (!URI.test(value))
    throw new ContentError(`${at}: uri "${clip(value)}" is not a URI (scheme:rest, no spaces)`);
  return value;
}

/** Base64 text of at most MAX_MEDIA_BYTES bytes. */
function data(fields: Fields, key: string, at: string): string {
  const value = str(fields, key, at, Math.ceil(MAX_MEDIA_BYTES / 3) * 4);
  if (value.length % 4 !== 0 || !BASE64.test(value))
    throw new ContentError(`${at}: ${key} is not base64`);
  return value;
}

function size(value: unknown, at: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new ContentError(`${at}: size must be a whole number of bytes`);
  return value as number;
}
