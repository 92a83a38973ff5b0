/**
 * The dashboard's only way to the server: the public HTTP API, same origin. With
 * XIGUA_AUTH=keys the key typed in once is kept in sessionStorage and sent as a bearer token.
 */
export interface Problem {
  status: number;
  title: string;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(describe(problem));
  }
}

function describe(p: Problem): string {
  const fields = (p.errors ?? []).map((e) => `${e.path}: ${e.message}`).join("; ");
  return `${p.status} ${p.title}${p.detail ? `: ${p.detail}` : ""}${fields ? ` (${fields})` : ""}`;
}

const KEY = "xigua.apiKey";
let onUnauthorised: () => void = () => undefined;

export function setUnauthorisedHandler(handler: () => void): void {
  onUnauthorised = handler;
}

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = apiKey();
  return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
}

async function problemOf(res: Response): Promise<ApiProblem> {
  if (res.status === 401) onUnauthorised();
  let body: Problem;
  try {
    body = (await res.json()) as Problem;
  } catch {
    body = { status: res.status, title: res.statusText || "Request failed" };
  }
  return new ApiProblem(body);
}

export async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw await problemOf(res);
  return (await res.json()) as T;
}

export async function send<T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { "content-type": "application/json" }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await problemOf(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export async function download(path: string): Promise<Blob> {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw await problemOf(res);
  return res.blob();
}

/**
 * GET for polling: remembers each URL's ETag and last body, sends If-None-Match, and
 * takes a 304 as "unchanged" (the evaluations list, a model, an evaluation and a search send ETags).
 */
const cache = new Map<string, { etag: string; body: unknown }>();

export async function poll<T>(path: string): Promise<{ body: T; changed: boolean }> {
  const known = cache.get(path);
  const res = await fetch(path, { headers: headers(known ? { "if-none-match": known.etag } : {}), cache: "no-store" });
  if (res.status === 304 && known) return { body: known.body as T, changed: false };
  if (!res.ok) throw await problemOf(res);
  const body = (await res.json()) as T;
  const etag = res.headers.get("etag");
  if (etag) cache.set(path, { etag, body });
  return { body, changed: true };
}

/** CSV upload with progress: XMLHttpRequest, since fetch reports no upload progress. */
export function uploadCsv<T>(file: File, name: string, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/v1/datasets?name=${encodeURIComponent(name)}`);
    xhr.setRequestHeader("content-type", "text/csv");
    const key = apiKey();
    if (key) xhr.setRequestHeader("authorization", `Bearer ${key}`);
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener("load", () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { status: xhr.status, title: xhr.statusText || "Upload failed" };
      }
      if (xhr.status === 201) resolve(body as T);
      else {
        if (xhr.status === 401) onUnauthorised();
        reject(new ApiProblem(body as Problem));
      }
    });
    xhr.addEventListener("error", () => reject(new Error("The upload failed (network error).")));
    xhr.send(file);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
