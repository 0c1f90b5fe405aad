/**
 * Fills a sandbox's data directory with many actions or events in one SQL statement each: through
 * the REST interface 5,000 creates take about a minute and 100,000 runs far longer, and that is
 * setup, not what is measured. The sandbox then starts on the directory as it would on any other.
 */
import { openDatabase } from '../../src/sandbox/store/database';

export async function addActions(dataDir: string, applicationId: string, count: number, metadata: (key: string) => object): Promise<void> {
  const db = await openDatabase(dataDir);
  try {
    const sample = JSON.stringify(metadata('KEY'));
    // One statement: the metadata of action i is the sample with KEY replaced by its key.
    await db.query(
      `INSERT INTO actions (id, application_id, key, metadata, created_at, updated_at)
       SELECT gen_random_uuid()::text, $1, 'bench-' || i, replace($2, 'KEY', 'bench-' || i)::json, $3::double precision + i, $3::double precision + i
       FROM generate_series(1, $4::int) AS i`,
      [applicationId, sample, Date.now(), count],
    );
  } finally {
    await db.close();
  }
}

/** Copies the one event the environment holds `count - 1` times, with new ids and start times. */
export async function addEvents(dataDir: string, actionId: string, environmentId: string, count: number): Promise<void> {
  const db = await openDatabase(dataDir);
  try {
    await db.query(
      `INSERT INTO events (id, action_id, environment_id, name, data, recorded_at)
       SELECT gen_random_uuid(), e.action_id, e.environment_id, e.name, e.data, e.recorded_at + i
       FROM events e, generate_series(1, $3::int) AS i WHERE e.action_id = $1 AND e.environment_id = $2`,
      [actionId, environmentId, count - 1],
    );
  } finally {
    await db.close();
  }
}
