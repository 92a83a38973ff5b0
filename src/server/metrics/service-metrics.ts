/**
 * The service's Prometheus metrics: one prom-client Registry per app (tests build
 * many apps in one process; the global default registry would mix them), with
 * prom-client's process metrics (event-loop lag included).
 *
 * What the hot paths pay: a request, one histogram observation (onResponse); a
 * predict, one Map lookup and two integer additions (recordPrediction). Everything
 * else is read when Prometheus scrapes, in collect() callbacks: job counts from the
 * store, queue and pool figures, the model cache's counters.
 *
 * Cardinality stays bounded: requests are labelled by route pattern (never the raw
 * URL), methods and statuses are few, algorithms are the catalogue, and the
 * prediction counters name at most `maxModels` models; predictions of any model
 * beyond them count as model="other".
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** What the metrics read at scrape time; each part may be absent (e.g. no training pool with a BullMQ queue). */
export interface MetricSources {
  jobCounts(): Promise<{ kind: string; status: string; count: number }[]>;
  /** Jobs queued or running in this process's runner (or the BullMQ queue). */
  activeJobs(): Promise<number>;
  pools(): { pool: string; queueSize: number; utilization: number; threads: number }[];
  modelCache(): { hits: number; misses: number; bytes: number; entries: number };
  /** Predict batches the compute pool cut into row ranges predicted on several threads. */
  splitBatches(): number;
  /** The model's name and version, when it has a name (the registry's models); undefined for an unknown model. */
  modelLabel(id: string): Promise<{ name: string | null; version?: number | null } | undefined>;
}

interface PredictionCount {
  predictions: number;
  rows: number;
  /** Resolved once, at the first scrape after the model's first predict, then fixed (a counter's labels must not move). */
  labels?: { model: string; version: string };
}

const OTHER = "other";
const JOB_KINDS = ["model", "evaluation", "search"] as const;
const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

/** Request latencies from a cached single-row predict (~100 µs) to a large upload. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Fits from milliseconds to the job time limit. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

export class ServiceMetrics {
  readonly registry = new Registry();
  /** The port of the separate metrics server once it listens (XIGUA_METRICS_PORT); null when /metrics is on the API port. */
  port: number | null = null;
  private readonly requestDuration: Histogram<"route" | "method" | "status">;
  private readonly jobDuration: Histogram<"algorithm">;
  /** requestDuration's children by `method status route` (route patterns, so the set is bounded). */
  private readonly requestSeries = new Map<string, Histogram.Internal<"route" | "method" | "status">>();
  private readonly perModel = new Map<string, PredictionCount>();
  private readonly other: PredictionCount = { predictions: 0, rows: 0, labels: { model: OTHER, version: "" } };
  private sources: MetricSources | null = null;

  constructor(private readonly maxModels: number) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: "xigua_http_request_duration_seconds",
      help: "HTTP requests by route pattern, method and status: time from receiving the request to sending the response",
      labelNames: ["route", "method", "status"],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.jobDuration = new Histogram({
      name: "xigua_job_duration_seconds",
      help: "Fit time of training jobs that succeeded in this process, by algorithm",
      labelNames: ["algorithm"],
      buckets: JOB_BUCKETS,
      registers,
    });

    const predictionCounter = (name: string, help: string, field: "predictions" | "rows") => {
      const counter: Counter<"model" | "version"> = new Counter({
        name,
        help,
        labelNames: ["model", "version"],
        registers,
        collect: async () => {
          await this.resolveLabels();
          counter.reset();
          for (const count of [...this.perModel.values(), this.other]) if (count[field] > 0) counter.inc(count.labels!, count[field]);
        },
      });
    };
    predictionCounter("xigua_predictions_total", `Predict requests answered 200, by model (name and version, or id with an empty version; past ${maxModels} models, "other")`, "predictions");
    predictionCounter("xigua_predicted_rows_total", "Rows predicted, by model (as xigua_predictions_total)", "rows");

    const jobs: Gauge<"kind" | "status"> = new Gauge({
      name: "xigua_jobs",
      help: "Models (training jobs), evaluations and searches in the store, by kind and status",
      labelNames: ["kind", "status"],
      registers,
      collect: async () => {
        if (!this.sources) return;
        // The store unreachable: the gauge keeps its last values rather than failing the whole scrape (/health/ready says why).
        const counts = await this.sources.jobCounts().catch(() => null);
        if (!counts) return;
        // Every kind and status has a series, zero included, so a rate or an alert never sees one vanish.
        for (const kind of JOB_KINDS) for (const status of JOB_STATUSES) jobs.set({ kind, status }, 0);
        for (const c of counts) jobs.set({ kind: c.kind, status: c.status }, c.count);
      },
    });
    const active: Gauge = new Gauge({
      name: "xigua_jobs_active",
      help: "Jobs queued or running in this process's job runner (with XIGUA_QUEUE_URL: in the BullMQ queue)",
      registers,
      collect: async () => {
        const count = await this.sources?.activeJobs().catch(() => null);
        if (count != null) active.set(count);
      },
    });
    const poolGauge = (name: string, help: string, field: "queueSize" | "utilization" | "threads") => {
      const gauge: Gauge<"pool"> = new Gauge({
        name,
        help,
        labelNames: ["pool"],
        registers,
        collect: () => {
          for (const p of this.sources?.pools() ?? []) gauge.set({ pool: p.pool }, p[field]);
        },
      });
    };
    poolGauge("xigua_pool_queue_depth", "Tasks waiting for a worker thread, by pool (training, compute)", "queueSize");
    poolGauge("xigua_pool_utilization", "Worker threads' busy time over their capacity since the pool started (piscina), 0..1, by pool", "utilization");
    poolGauge("xigua_pool_threads", "Worker threads alive, by pool", "threads");

    const splits: Counter = new Counter({
      name: "xigua_predict_split_batches_total",
      help: "Large predict batches cut into row ranges that several compute threads predicted at once",
      registers,
      collect: () => {
        const count = this.sources?.splitBatches();
        if (count === undefined) return;
        splits.reset();
        splits.inc(count);
      },
    });

    const cache = () => this.sources?.modelCache();
    const cacheCounter = (name: string, help: string, field: "hits" | "misses") => {
      const counter: Counter = new Counter({
        name,
        help,
        registers,
        collect: () => {
          const c = cache();
          if (!c) return;
          counter.reset();
          counter.inc(c[field]);
        },
      });
    };
    const cacheGauge = (name: string, help: string, field: "bytes" | "entries") => {
      const gauge: Gauge = new Gauge({
        name,
        help,
        registers,
        collect: () => {
          const c = cache();
          if (c) gauge.set(c[field]);
        },
      });
    };
    cacheCounter("xigua_model_cache_hits_total", "Predict lookups answered by the request thread's model cache", "hits");
    cacheCounter("xigua_model_cache_misses_total", "Artifacts the request thread's model cache loaded from the store", "misses");
    cacheGauge("xigua_model_cache_bytes", "Estimated memory held by the request thread's cached models", "bytes");
    cacheGauge("xigua_model_cache_models", "Models in the request thread's model cache", "entries");
  }

  /** Set once the services exist (the registry is built before them). */
  attach(sources: MetricSources): void {
    this.sources = sources;
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    // The labelled child is looked up once per (route, method, status): prom-client would
    // otherwise validate and hash the label object on every observation.
    const key = `${method} ${status} ${route}`;
    let child = this.requestSeries.get(key);
    if (!child) this.requestSeries.set(key, (child = this.requestDuration.labels({ route, method, status: String(status) })));
    child.observe(seconds);
  }

  /** The predict hot path: no await, no allocation once the model has been seen. */
  recordPrediction(modelId: string, rows: number): void {
    let count = this.perModel.get(modelId);
    if (!count) {
      if (this.perModel.size >= this.maxModels) count = this.other;
      else this.perModel.set(modelId, (count = { predictions: 0, rows: 0 }));
    }
    count.predictions++;
    count.rows += rows;
  }

  observeTraining(algorithm: string, seconds: number): void {
    this.jobDuration.observe({ algorithm }, seconds);
  }

  private async resolveLabels(): Promise<void> {
    const pending = [...this.perModel].filter(([, c]) => !c.labels);
    await Promise.all(
      pending.map(async ([id, count]) => {
        const record = await this.sources?.modelLabel(id).catch(() => undefined);
        count.labels ??= record?.name ? { model: record.name, version: record.version == null ? "" : String(record.version) } : { model: id, version: "" };
      }),
    );
  }
}
