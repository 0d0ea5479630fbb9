/**
 * Grows a sandbox database to a given number of applications with plain SQL, in bounded batches
 * inside transactions (memory stays flat whatever the size): each batch adds candidates and their
 * applications spread over the existing adverts, feeds, rankings, progress values and two years.
 *
 *   node out/bench/bulkGenerate.js --dir /tmp/big --applications 1000000
 */
import { parseArgs } from 'node:util';
import type { Database } from 'node-sqlite3-wasm';
import { openSandbox } from '../src/emulator/sandbox';
import { inTransaction, openDatabase } from '../src/emulator/store/database';

/** Rows added per transaction. */
const BATCH = 50_000;

/** Seeds the sandbox at `dir` (default demo data) and then adds applications up to `applications`. */
export function generateBulkSandbox(
	dir: string,
	applications: number,
	log: (line: string) => void = () => undefined,
): { ms: number; applications: number; feedIds: number[] } {
	const started = Date.now();
	// close() releases the owner lock too, so the benchmark can open the folder again.
	openSandbox({ dataDir: dir, seed: 1, passwordCost: 1024 }).close();
	const db = openDatabase(`${dir}/sandbox.sqlite`);
	try {
		const total = grow(db, applications, log);
		const feedIds = (db.all('SELECT id FROM feed ORDER BY id LIMIT 3') as { id: number }[]).map((r) =>
			Number(r.id),
		);
		return { ms: Date.now() - started, applications: total, feedIds };
	} finally {
		db.close();
	}
}

function count(db: Database, sql: string): number {
	return Number((db.get(sql) as { n: number | bigint }).n);
}

function grow(db: Database, target: number, log: (line: string) => void): number {
	db.exec(`CREATE TEMP TABLE bulk_advert AS SELECT row_number() OVER (ORDER BY id) - 1 AS k, id, organisation_id FROM advert;
		CREATE TEMP TABLE bulk_feed AS SELECT row_number() OVER (ORDER BY id) - 1 AS k, id FROM feed;`);
	const adverts = count(db, 'SELECT count(*) AS n FROM temp.bulk_advert');
	const feeds = count(db, 'SELECT count(*) AS n FROM temp.bulk_feed');
	const progresses = count(db, 'SELECT count(*) AS n FROM progress');
	let have = count(db, 'SELECT count(*) AS n FROM application');
	const firstCandidate = count(db, 'SELECT coalesce(max(id), 0) + 1 AS n FROM candidate');
	let next = firstCandidate;
	const twoYearsS = 2 * 365 * 86_400;
	const end = Math.floor(Date.now() / 1000);
	while (have < target) {
		const size = Math.min(BATCH, target - have);
		const from = next;
		const to = next + size - 1;
		inTransaction(db, () => {
			const series = `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})`;
			db.run(`${series} INSERT INTO candidate (id, organisation_id, email, first_name, last_name, mobile_phone, address)
				SELECT i, ba.organisation_id, 'bulk' || i || '@example.org', 'First' || i, 'Last' || i, '+44 7700 900' || (i % 1000), (i % 200) || ' High Street'
				FROM n JOIN temp.bulk_advert ba ON ba.k = i % ${adverts}`);
			db.run(`${series} INSERT INTO application (advert_id, candidate_id, feed_id, applied_at, viewed, ranking, favourite, progress_id, last_score_date, last_progress_date)
				SELECT ba.id, i, bf.id,
					strftime('%Y-%m-%dT%H:%M:%SZ', ${end} - ((i * 7919) % ${twoYearsS}), 'unixepoch'),
					i % 2, (CASE i % 4 WHEN 3 THEN 4 ELSE i % 4 END), (i % 9 = 0), 1 + (i % ${progresses}),
					CASE WHEN i % 3 = 0 THEN strftime('%Y-%m-%dT%H:%M:%SZ', ${end} - ((i * 104729) % ${twoYearsS}), 'unixepoch') END,
					CASE WHEN i % 5 = 0 THEN strftime('%Y-%m-%dT%H:%M:%SZ', ${end} - ((i * 15485863) % ${twoYearsS}), 'unixepoch') END
				FROM n JOIN temp.bulk_advert ba ON ba.k = i % ${adverts} JOIN temp.bulk_feed bf ON bf.k = i % ${feeds}`);
		});
		next += size;
		have += size;
		log(`  bulk: ${have} applications`);
	}
	db.exec('DROP TABLE temp.bulk_advert; DROP TABLE temp.bulk_feed; ANALYZE;');
	return have;
}

if (require.main === module) {
	const { values } = parseArgs({
		options: { dir: { type: 'string' }, applications: { type: 'string', default: '1000000' } },
	});
	if (!values.dir) throw new Error('--dir is required');
	const result = generateBulkSandbox(values.dir, Number(values.applications), console.log);
	console.log(`generated ${result.applications} applications in ${(result.ms / 1000).toFixed(1)} s`);
}
