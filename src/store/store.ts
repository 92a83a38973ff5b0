/** The store as the rest of the service sees it: one connection, one repository per table. */
import { openDatabase, type Db } from "./database.js";
import { DatasetRepository } from "./datasets.js";
import { EvaluationRepository } from "./evaluations.js";
import { ModelRepository } from "./models.js";
import { SearchRepository } from "./searches.js";

export interface Store {
  readonly path: string;
  readonly db: Db;
  readonly datasets: DatasetRepository;
  readonly models: ModelRepository;
  readonly evaluations: EvaluationRepository;
  readonly searches: SearchRepository;
  isHealthy(): boolean;
  close(): void;
}

export function openStore(path: string): Store {
  const db = openDatabase(path);
  const evaluations = new EvaluationRepository(db);
  return {
    path,
    db,
    datasets: new DatasetRepository(db),
    models: new ModelRepository(db, evaluations),
    evaluations,
    searches: new SearchRepository(db),
    isHealthy: () => {
      try {
        return db.open && db.prepare("SELECT 1 AS ok").get() !== undefined;
      } catch {
        return false;
      }
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}
