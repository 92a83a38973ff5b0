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
  /** Raw payload (a CSV); sent as is. */
  raw?: string;
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

const tagged = (request: FuzzRequest, ...tags: string[]) => tags.some((tag) => request.tags?.includes(tag));

/** 5xx answers found by the batteries that belong to other slices of issue 10, pending their fixes. */
export const KNOWN_GAPS: KnownGap[] = [
  {
    route: "JOB",
    matches: (r, a) => tagged(r, "table:huge", "table:tiny", "table:spread") && tagged(r, "algorithm:linear_regression", "algorithm:ridge", "algorithm:lda") && a.body.includes('"training_failed"'),
    reason:
      "linear_regression, ridge and lda fitted on values near ±1e307 or 1e-300 fail with status 500 training_failed and the raw TypeError \"Cannot read properties of undefined (reading '0')\"; should be a 422-class problem with a generic message (items 12, 18, 23: h-linear for the fit, h-jobs for the mapping)",
  },
  {
    route: "JOB",
    matches: (r, a) => tagged(r, "table:three_rows") && tagged(r, "algorithm:lda", "algorithm:svm") && a.body.includes('"training_failed"'),
    reason:
      'a k-fold training part too small for the model ("lda needs more rows than classes", svm\'s "binary problem 0 has rows of one side only") is thrown as a plain Error and recorded as status 500 training_failed; it is the client\'s data, a 422 unusable_input (item 23: the models\' owners to throw DataError, h-jobs for the mapping)',
  },
  ...["/v1/models/{id}/predict", "/v1/models/{id}/explain"].map((route) => ({
    route: `${route.endsWith("predict") ? "POST" : "GET"} ${route}`,
    matches: (r: FuzzRequest) =>
      tagged(r, "table:huge", "table:spread") &&
      tagged(r, "algorithm:lasso", "algorithm:elastic_net", "algorithm:logistic_regression", "algorithm:softmax_regression", "algorithm:svm", "algorithm:svr"),
    reason: `lasso, elastic_net, logistic/softmax regression, svm and svr "succeed" on values near ±1e300–1e307 with a non-finite state, after which ${route.split("/").at(-1)} answers 500; the fit should fail with 422, an overflowing prediction be null with a warning (item 18: h-linear / h-serving)`,
  })),
];

/** The preprocessing steps of a train, evaluation or search body. */
function stepsOf(request: FuzzRequest): Record<string, unknown>[] {
  const body = request.body as { preprocessing?: unknown } | undefined;
  return Array.isArray(body?.preprocessing) ? body.preprocessing.filter((s): s is Record<string, unknown> => typeof s === "object" && s !== null) : [];
}

/**
 * Inputs that take the whole test process down (heap exhaustion on the request
 * thread), so they cannot be sent at all until fixed: skipped and reported.
 */
export const KNOWN_CRASHES: { route: string; matches(request: FuzzRequest): boolean; reason: string }[] = [
  {
    route: "POST /v1/models",
    matches: (r) => stepsOf(r).some((s) => s.step === "mds" && typeof s.n_components === "number" && s.n_components > 1e5),
    reason: "mds.n_components ≥ 1e9 builds a list of that many column names on the request thread: heap exhausted, process killed (issue 10 items 6/16, h-limits)",
  },
];

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
      ...(payload !== undefined ? { payload, headers: { "content-type": request.contentType ?? "application/json" } } : {}),
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
      `${request.method} ${request.url} ${(request.raw ?? (request.body === undefined ? "" : encodeBody(request.body))).slice(0, 600)}${request.tags ? ` [${request.tags.join(", ")}]` : ""} → ${res.statusCode} ${res.body.slice(0, 400)}`;
    if (res.statusCode >= 500 && res.statusCode !== 503) {
      this.knownGapOrFail(`${request.method} ${routePattern}`, request, { status: res.statusCode, body: res.body }, label());
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
    else if (/^\/v1\/evaluations\/[^/]+$/.test(location)) this.app.services.jobs.cancel(location.split("/").at(-1)!);
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
