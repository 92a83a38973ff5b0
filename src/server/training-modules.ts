/**
 * The training modules the main thread needs only once a request names an algorithm:
 * the algorithm registry, which loads every algorithm family, and the modules that
 * import it (spec resolution, artifacts, partial-fit checks). Loading them at start-up
 * cost the idle server ≈ 12 MiB and ≈ 300 ms; they are loaded with the first request
 * that may need them (plugins/load-registry.ts), or by the model cache before it reads
 * an artifact, and read synchronously after that.
 */
import { importBeside, loadOnce } from "../import-beside.js";
import { loadRegistry } from "../models/lazy-registry.js";

interface TrainingModules {
  spec: typeof import("../training/spec.js");
  artifact: typeof import("../training/artifact.js");
  partialFit: typeof import("../training/partial-fit.js");
}

let modules: TrainingModules | null = null;

const load = <T>(path: string) => importBeside<T>(import.meta.url, path);
const importModules = loadOnce(async (): Promise<TrainingModules> => {
  const [spec, artifact, partialFit] = await Promise.all([
    load<TrainingModules["spec"]>("../training/spec"),
    load<TrainingModules["artifact"]>("../training/artifact"),
    load<TrainingModules["partialFit"]>("../training/partial-fit"),
    loadRegistry(),
  ]);
  return { spec, artifact, partialFit };
});

export function trainingModulesLoaded(): boolean {
  return modules !== null;
}

/** Loads them (once; a failed load is retried by the next call). */
export async function loadTrainingModules(): Promise<void> {
  modules ??= await importModules();
}

/** The loaded modules; a caller that did not await loadTrainingModules() first is a bug. */
export function trainingModules(): TrainingModules {
  if (!modules) throw new Error("the training modules are not loaded yet: await loadTrainingModules() first");
  return modules;
}
