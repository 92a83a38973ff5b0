/**
 * The algorithm registry for the modules the server's main thread loads at start-up
 * (training/spec, artifact, memory-estimate, jobs, search-runner, the select and l1
 * steps, three routes). Importing registry.ts loads every algorithm family: ≈ 12 MiB of
 * the idle server and ≈ 300 ms of its start, for a thread that needs an algorithm only
 * once a request names one. These modules look algorithms up here instead, and the
 * registry is loaded by whoever needs it first:
 *
 * - on the server's main thread, before a request that may look one up
 *   (server/plugins/load-registry.ts), and by the job runner before it reads one;
 * - everywhere else (worker threads, tests, scripts), by importing registry.ts, which
 *   hands itself over here when it is evaluated, or by awaiting loadRegistry().
 *
 * A lookup before either is a caller that forgot to load it: it throws.
 */
import { importBeside, loadOnce } from "../import-beside.js";
import type { Algorithm } from "./contract.js";

interface Registry {
  getAlgorithm(name: string): Algorithm | undefined;
  listAlgorithms(): readonly Algorithm[];
}

let registry: Registry | null = null;
const importRegistry = loadOnce(() => importBeside<Registry>(import.meta.url, "./registry"));

/** Called by registry.ts when it is evaluated. */
export function provideRegistry(loaded: Registry): void {
  registry = loaded;
}

export function registryLoaded(): boolean {
  return registry !== null;
}

/** Loads registry.ts (once; a failed load is retried by the next call). */
export async function loadRegistry(): Promise<void> {
  registry ??= await importRegistry();
}

function loaded(): Registry {
  if (!registry) throw new Error("the algorithm registry is not loaded yet: await loadRegistry() first");
  return registry;
}

export function getAlgorithm(name: string): Algorithm | undefined {
  return loaded().getAlgorithm(name);
}

export function listAlgorithms(): readonly Algorithm[] {
  return loaded().listAlgorithms();
}
