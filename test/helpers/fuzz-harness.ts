/**
 * The fuzz batteries' invariant, checked after every request: no 5xx; every
 * error is problem+json with a catalogue code; a job the request created is
 * cancelled (the suite ends cleanly); /health/ready answers 200 within a second
 * (the issue's bound: a request that leaves work on the event loop shows here).
 *
 * A 5xx in a slice another engineer owns is listed in KNOWN_GAPS with the
 * reason, like scikit-learn's PER_ESTIMATOR_XFAIL_CHECKS: it is reported as a
 * test diagnostic rather than a failure, and the lead clears the entry once the
 * fix is merged. Anything else that answers 5xx fails the battery.
 */
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import type { LightMyRequestResponse } from "fastify";
import { isErrorCode } from "../../src/server/errors.js";
import { encodeBody } from "./schema-values.js";

export interface FuzzRequest {
  method: string;
  url: string;
  body?: unknown;
  /** Raw payload (a CSV, compressed bytes); sent as is. */
  raw?: string | Buffer;
  /** Extra request headers (content-encoding, accept, …). */
  headers?: Record<string, string>;
  contentType?: string;
  /** What the request was built from (the table, the algorithm), for known-gap predicates and messages. */
  tags?: string[];
  /** Leave a created job running (the caller waits for it) instead of cancelling it. */
  keepJob?: boolean;
}

export interface KnownGap {
  /** Method and route pattern, e.g. "POST /v1/models". */
  route: string;
  /** Which inputs: a predicate on the request and the problem answered. */
  matches(request: FuzzRequest, response: { status: number; body: string }): boolean;
  reason: string;
}

/**
 * 5xx answers the batteries know of, each with its reason (as scikit-learn's PER_ESTIMATOR_XFAIL_CHECKS).
 * Empty: every gap found while issue 10 was built has been fixed. A new entry needs an issue.
 */
export const KNOWN_GAPS: KnownGap[] = [];

/**
 * Inputs that take the whole test process down (heap exhaustion on the request
 * thread), so they cannot be sent at all until fixed: skipped and reported.
 */
export const KNOWN_CRASHES: { route: string; matches(request: FuzzRequest): boolean; reason: string }[] = [];

export const HEALTH_BOUND_MS = 1000;

export class FuzzHarness {
  readonly gapsSeen = new Map<KnownGap, string[]>();
  requests = 0;

  constructor(private readonly app: FastifyInstance) {}

  readonly crashesSkipped = new Map<string, number>();
  /** Answers per route and status: shows how deep the random requests got. */
  readonly statuses = new Map<string, Map<number, number>>();

  /** Sends one request and checks the invariant; null when the input is a known crash and was not sent. */
  async send(request: FuzzRequest, routePattern: string): Promise<LightMyRequestResponse | null> {
    const crash = KNOWN_CRASHES.find((c) => c.route === `${request.method} ${routePattern}` && c.matches(request));
    if (crash) {
      this.crashesSkipped.set(crash.reason, (this.crashesSkipped.get(crash.reason) ?? 0) + 1);
      return null;
    }
    const payload = request.raw ?? (request.body === undefined ? undefined : encodeBody(request.body));
    const res = await this.app.inject({
      method: request.method as "GET",
      url: request.url,
      ...(payload !== undefined ? { payload, headers: { "content-type": request.contentType ?? "application/json", ...request.headers } } : { headers: request.headers }),
    });
    this.requests++;
    const key = `${request.method} ${routePattern}`;
    const counts = this.statuses.get(key) ?? new Map<number, number>();
    counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
    this.statuses.set(key, counts);
    this.checkAnswer(request, routePattern, res);
    if (!request.keepJob) await this.cancelCreatedJob(res);
    await this.assertHealthy(`${request.method} ${request.url}`);
    return res;
  }

  private checkAnswer(request: FuzzRequest, routePattern: string, res: LightMyRequestResponse): void {
    const label = () =>
      `${request.method} ${request.url} ${String(request.raw ?? (request.body === undefined ? "" : encodeBody(request.body))).slice(0, 600)}${request.headers ? ` ${JSON.stringify(request.headers)}` : ""}${request.tags ? ` [${request.tags.join(", ")}]` : ""} → ${res.statusCode} ${res.body.slice(0, 400)}`;
    if (res.statusCode >= 500 && res.statusCode !== 503) {
      this.knownGapOrFail(`${request.method} ${routePattern}`, request, { status: res.statusCode, body: res.body }, label());
      return;
    }
    if (res.statusCode >= 400 && request.url.startsWith("/v2")) {
      // The Open Inference Protocol's routes answer its own error object, { "error": "…" }, as that protocol says.
      assert.match(String(res.headers["content-type"]), /^application\/json/, label());
      const body = res.json() as Record<string, unknown>;
      assert.ok(typeof body.error === "string" && Object.keys(body).length === 1, `not an OIP error object: ${label()}`);
      return;
    }
    if (res.statusCode >= 400) {
      assert.match(String(res.headers["content-type"]), /^application\/problem\+json/, label());
      const code = (res.json() as { code?: string }).code ?? "";
      assert.ok(isErrorCode(code), `code "${code}" is not in the catalogue: ${label()}`);
    }
  }

  /** FUZZ_COLLECT=1: list every unexpected 5xx in the report instead of failing at the first (for triage). */
  readonly unexpected: string[] = [];

  private knownGapOrFail(route: string, request: FuzzRequest, answer: { status: number; body: string }, label: string): void {
    const gap = KNOWN_GAPS.find((g) => g.route === route && g.matches(request, answer));
    if (!gap && process.env.FUZZ_COLLECT) {
      this.unexpected.push(label);
      return;
    }
    assert.ok(gap, `5xx: ${label}`);
    this.gapsSeen.set(gap, [...(this.gapsSeen.get(gap) ?? []), label]);
  }

  /**
   * A job that ended: a failure carries a catalogue problem, and a 5xx-class one
   * only for the service's own faults (never for what the client sent). Route "JOB".
   */
  async checkJob(what: string, status: string, error: { status?: number; code?: string } | undefined, tags: string[] = []): Promise<void> {
    if (status === "failed") {
      assert.ok(error && isErrorCode(error.code ?? ""), `job ${what} failed with a problem outside the catalogue: ${JSON.stringify(error)}`);
      if ((error.status ?? 500) >= 500) this.knownGapOrFail("JOB", { method: "JOB", url: what, tags }, { status: error.status ?? 500, body: JSON.stringify(error) }, `job ${what} [${tags.join(", ")}] → ${JSON.stringify(error).slice(0, 400)}`);
    }
    await this.assertHealthy(`job ${what}`);
  }

  /** A 202 queued a job: cancel it so the battery leaves nothing running (evaluations have no cancel route: the runner's own cancel). */
  private async cancelCreatedJob(res: LightMyRequestResponse): Promise<void> {
    if (res.statusCode !== 202) return;
    const location = String(res.headers.location ?? "");
    if (/^\/v1\/(models|searches)\/[^/]+$/.test(location)) await this.app.inject({ method: "POST", url: `${location}/cancel` });
    else if (/^\/v1\/evaluations\/[^/]+$/.test(location)) await this.app.services.jobs.cancel(location.split("/").at(-1)!);
  }

  async assertHealthy(after: string): Promise<void> {
    const started = performance.now();
    const res = await this.app.inject({ url: "/health/ready" });
    const elapsed = performance.now() - started;
    assert.equal(res.statusCode, 200, `/health/ready after ${after}: ${res.body}`);
    assert.ok(elapsed < HEALTH_BOUND_MS, `/health/ready took ${elapsed.toFixed(0)} ms after ${after}`);
  }

  /** Known gaps met in this run, for the test's diagnostics. */
  report(): string[] {
    return [
      `${this.requests} requests sent`,
      ...[...this.statuses].map(([route, counts]) => `${route}: ${[...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(" ")}`),
      ...[...this.gapsSeen].map(([gap, inputs]) => `known gap (${gap.route}: ${gap.reason}) hit ${inputs.length}×, e.g. ${inputs[0]}`),
      ...[...this.crashesSkipped].map(([reason, n]) => `known crash, ${n} input(s) not sent: ${reason}`),
      ...this.unexpected.map((label) => `UNEXPECTED 5xx: ${label}`),
    ];
  }
}
