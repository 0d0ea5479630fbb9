// Conformance run with independent client stacks (npm run conformance, via test/interop/run.sh).
// Starts the shipped sandbox (dist/sandbox.js) on a fresh folder, writes a plan (every operation with
// valid parameters and what its decoded result must show, plus one caller mistake), runs each stack's
// client on it in each binding it offers and prints a table: stack × binding × operations passed/failed.
// Each client prints one JSON line per call: {op, ok, result} or {op, ok: false, error}.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const CALL_TIMEOUT_MS = 600_000;

/** Stacks as [name, bindings, command(planFile, binding)]; run.sh passes the built .NET client's path. */
function stacks(dotnetExe) {
	const py = '/usr/bin/python3';
	return [
		['.NET wsdl.exe (Mono)', ['soap11', 'soap12', 'httpget', 'httppost'], (p, b) => ['mono', dotnetExe, p, b]],
		['WCF (Mono)', ['soap11', 'soap12'], (p, b) => ['mono', dotnetExe.replace(/asmx\.exe$/, 'wcf.exe'), p, b]],
		[
			'zeep',
			['soap11', 'soap12', 'httpget', 'httppost'],
			(p, b) => [py, join(here, 'python', 'client.py'), 'zeep', p, b],
		],
		['suds', ['soap11'], (p, b) => [py, join(here, 'python', 'client.py'), 'suds', p, b]],
		['PHP SoapClient', ['soap11', 'soap12'], (p, b) => ['php', join(here, 'php', 'client.php'), p, b]],
		['node-soap', ['soap11', 'soap12'], (p, b) => [process.execPath, join(here, 'node-soap', 'client.mjs'), p, b]],
	];
}

function run(command, args, options = {}) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => child.kill('SIGKILL'), CALL_TIMEOUT_MS);
		child.on('error', (error) => {
			clearTimeout(timer);
			resolve({ code: -1, stdout, stderr: stderr + String(error) });
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

function startSandbox(dataDir) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [join(root, 'dist', 'sandbox.js'), '--port', '0', '--data', dataDir], {
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		let buffer = '';
		child.stdout.on('data', (d) => {
			buffer += d;
			const line = buffer.split('\n')[0];
			if (buffer.includes('\n')) resolve({ child, info: JSON.parse(line) });
		});
		child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
	});
}

/** Parameter names of each operation, in order, from the SOAP request elements of a WSDL. */
function operationParams(wsdl) {
	const params = {};
	const pattern = /<s:element name="(\w+)">\s*<s:complexType>\s*<s:sequence>(.*?)<\/s:sequence>/gs;
	for (const [, name, body] of wsdl.matchAll(pattern)) {
		if (!name.endsWith('Response'))
			params[name] = [...body.matchAll(/<s:element[^>]* name="(\w+)"/g)].map((m) => m[1]);
	}
	return params;
}

async function get(url) {
	const response = await fetch(url);
	return response.text();
}

/** Ids from the seed, read over HTTP GET so that no stack under test is involved. */
async function seedFacts(info, params) {
	const query = (operation, given) =>
		new URLSearchParams(
			Object.fromEntries(params[operation].map((p) => [p, given[p] ?? credentials(info)[p] ?? ''])),
		);
	const adverts = await get(
		`${info.postingUrl}/GetAdvertPaged?${query('GetAdvertPaged', { sSearchDays: '-1', CurrentPage: '1', RowsPerPage: '500' })}`,
	);
	const advert = [...adverts.matchAll(/<APIAdvert>.*?<\/APIAdvert>/gs)]
		.map((m) => m[0])
		.find((a) => Number(/<Applications>(\d+)</.exec(a)[1]) > 3 && a.includes('<latitude>'));
	const advertId = /<AdvertID>(\d+)</.exec(advert)[1];
	const applications = await get(
		`${info.postingUrl}/GetApplicationsPaged?${query('GetApplicationsPaged', { sAdvertID: advertId, CurrentPage: '1', RowsPerPage: '1' })}`,
	);
	return {
		advertId,
		advertTitle: /<AdvertTitle>([^<]*)</.exec(advert)[1],
		applicationId: /<AdvertCandidateID>(\d+)</.exec(applications)[1],
		candidateEmail: /<EmailAddress>([^<]*)</.exec(applications)[1],
	};
}

function credentials(info) {
	return { sCultureID: 'en-GB', sAPIKey: info.apiKey, sUsername: info.username, sPassword: info.password };
}

/**
 * Every operation with valid parameters and what its result must show: `key` names a field of the
 * result's records; `count` (exact) or `min` is how many records carry it; `values` are fields of the
 * first such record.
 */
function calls(seed) {
	const application = { sAdvertID: seed.advertId, sAdvertCandidateID: seed.applicationId };
	return [
		['posting', 'GetCurrency', {}, { key: 'Value', min: 2 }],
		['posting', 'GetLoginURL', {}, { key: 'LoginSuccess', count: 1, values: { LoginSuccess: true } }],
		['posting', 'QueryJobTitle', { q: 'de' }, { key: 'JobTitle', min: 1 }],
		[
			'posting',
			'UserFeedsAndQuotaWithDestinations',
			{ Destinations: ['108'] },
			{ key: 'FeedID', count: 1, values: { FeedID: 108 } },
		],
		[
			'posting',
			'GetAdvertPaged',
			{ sAdvertID: seed.advertId, CurrentPage: 1, RowsPerPage: 5 },
			{ key: 'AdvertTitle', count: 1, values: { AdvertID: seed.advertId, AdvertTitle: seed.advertTitle } },
		],
		[
			'posting',
			'GetAdvertWithValuesPaged',
			{ sAdvertID: seed.advertId, CurrentPage: 1, RowsPerPage: 5 },
			{ key: 'AdvertTitle', count: 1, values: { AdvertID: seed.advertId } },
		],
		[
			'posting',
			'GetAdvertWithValues',
			{ sAdvertID: seed.advertId },
			{ key: 'AdvertTitle', count: 1, values: { AdvertTitle: seed.advertTitle } },
		],
		[
			'posting',
			'GetApplicationsPaged',
			{
				sAdvertID: seed.advertId,
				AdvertCandidateIDAsCSV: seed.applicationId,
				CurrentPage: 1,
				RowsPerPage: 3,
				boolIncludeEmail: 'true',
			},
			{
				key: 'EmailAddress',
				count: 1,
				values: { AdvertCandidateID: seed.applicationId, EmailAddress: seed.candidateEmail },
			},
		],
		[
			'posting',
			'AddAdvert',
			{ sJobTitle: 'Conformance check', sPrimaryLocation: 'Leeds' },
			{ key: 'AdvertID', count: 1 },
		],
		['posting', 'ExpressPostAdvert', { sAdvertID: seed.advertId }, { key: 'AdvertID', min: 1 }],
		['posting', 'AdvertTrackingResponseLog', { sAdvertID: seed.advertId }, { key: 'FeedID', min: 1 }],
		[
			'posting',
			'ApplicationScore',
			{ ...application, sScore: 'S', sScoreAsJobOwner: false },
			{ key: 'Success', count: 1, values: { Success: true } },
		],
		[
			'posting',
			'ApplicationProgress',
			{ ...application, sProgressID: '1' },
			{ key: 'Success', count: 1, values: { Success: true } },
		],
		[
			'posting',
			'AddAdvertCandidateNote',
			{ ...application, sSubject: 'Conformance', sBody: 'Checked by an independent client.' },
			{ key: 'AdvertCandidateNoteID', count: 1 },
		],
		[
			'posting',
			'CandidateTag',
			{ sCandidateEmail: seed.candidateEmail, Tag: 'Reviewed' },
			{ key: 'Success', count: 1, values: { Success: true } },
		],
		[
			'posting',
			'CandidateTagPartner',
			{ sCandidateEmail: seed.candidateEmail, PartnerTag: 'PartnerAccepted' },
			{ key: 'Success', count: 1, values: { Success: true } },
		],
		['administration', 'UserList', {}, { key: 'Username', min: 2 }],
		['administration', 'FeedList', {}, { key: 'FeedID', min: 2 }],
		['administration', 'FeedQuotaList', {}, { key: 'FeedName', min: 1 }],
		['administration', 'GetWeeksToAdvertise', {}, { key: 'Value', min: 1 }],
	];
}

/** Records (objects) anywhere in a decoded result that carry `key` with a value. */
function recordsWith(tree, key, found = []) {
	if (Array.isArray(tree)) for (const item of tree) recordsWith(item, key, found);
	else if (tree && typeof tree === 'object') {
		if (tree[key] !== undefined && tree[key] !== null) found.push(tree);
		for (const value of Object.values(tree)) recordsWith(value, key, found);
	}
	return found;
}

const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();

function check(result, expect) {
	// zeep returns the value itself when a result record has one field (ApplicationScoreResult.Success).
	const tree = result !== null && typeof result === 'object' ? result : { [expect.key]: result };
	const records = recordsWith(tree, expect.key);
	if (expect.count !== undefined && records.length !== expect.count) {
		return `expected ${expect.count} record(s) with ${expect.key}, decoded ${records.length}`;
	}
	if (expect.min !== undefined && records.length < expect.min) {
		return `expected at least ${expect.min} record(s) with ${expect.key}, decoded ${records.length}`;
	}
	for (const [field, value] of Object.entries(expect.values ?? {})) {
		if (!same(records[0]?.[field], value)) return `${field}: expected ${value}, decoded ${records[0]?.[field]}`;
	}
	return undefined;
}

/** Each stack's exception for the caller mistake (a wrong API key), and the text it must carry. */
const MISTAKE_TEXT = 'sAPIKey is not valid';

async function main() {
	const dotnetExe = process.argv[2];
	const only = process.env.CONFORMANCE_STACKS?.split(',');
	const work = mkdtempSync(join(tmpdir(), 'mp-conformance-'));
	const { child, info } = await startSandbox(join(work, 'data'));
	try {
		const wsdl = { posting: await get(info.postingWsdl), administration: await get(info.adminWsdl) };
		const params = { ...operationParams(wsdl.posting), ...operationParams(wsdl.administration) };
		const seed = await seedFacts(info, params);
		const withCredentials = (operation, given) => ({
			...Object.fromEntries(
				params[operation]
					.filter((p) => credentials(info)[p] !== undefined)
					.map((p) => [p, credentials(info)[p]]),
			),
			...given,
		});
		const plan = {
			wsdl: { posting: info.postingWsdl, administration: info.adminWsdl },
			endpoint: { posting: info.postingUrl, administration: info.adminUrl },
			namespace: info.namespace,
			calls: calls(seed).map(([service, op, given, expect]) => ({
				service,
				op,
				params: withCredentials(op, given),
				order: params[op],
				expect,
			})),
			mistake: {
				service: 'posting',
				op: 'GetCurrency',
				params: { sCultureID: 'en-GB', sAPIKey: 'wrong-key' },
				order: params.GetCurrency,
			},
		};
		const planFile = join(work, 'plan.json');
		writeFileSync(planFile, JSON.stringify(plan, null, 1));
		const rows = [];
		for (const [stack, bindings, command] of stacks(dotnetExe)) {
			if (only && !only.some((o) => stack.toLowerCase().includes(o.toLowerCase()))) continue;
			for (const binding of bindings) {
				const [cmd, ...args] = command(planFile, binding);
				const outcome = await run(cmd, args);
				rows.push(score(stack, binding, plan, outcome));
			}
		}
		print(rows);
		process.exitCode = rows.every((r) => r.failures.length === 0) ? 0 : 1;
	} finally {
		child.kill();
		rmSync(work, { recursive: true, force: true });
	}
}

function score(stack, binding, plan, outcome) {
	const lines = new Map();
	for (const line of outcome.stdout.split('\n')) {
		if (!line.startsWith('{')) continue;
		const entry = JSON.parse(line);
		lines.set(entry.op, entry);
	}
	// The WCF client is a hand-written contract of GetCurrency kept for its fault check; its decoding of
	// the result is reported as a note (Mono's WCF decodes no rows; see src/emulator/README.md).
	const wcf = stack === 'WCF (Mono)';
	const expected = wcf ? [] : plan.calls;
	const failures = [];
	let passed = 0;
	if (lines.size === 0) {
		const why = outcome.stderr.trim().split('\n').slice(-3).join(' | ');
		failures.push(`the client ended without answering (exit ${outcome.code}): ${why}`);
		return { stack, binding, passed, total: expected.length, mistake: 'no answer', failures };
	}
	for (const call of expected) {
		const entry = lines.get(call.op);
		const problem = !entry
			? `no answer (exit ${outcome.code}) ${outcome.stderr.trim().split('\n').slice(-1)[0]}`
			: !entry.ok
				? entry.error
				: check(entry.result, call.expect);
		if (problem) failures.push(`${call.op}: ${problem}`);
		else passed++;
	}
	const fault = lines.get('mistake');
	let mistake;
	if (!fault) mistake = `no answer (exit ${outcome.code})`;
	else if (fault.ok) mistake = 'FAILED: the call succeeded';
	else if (!fault.error.includes(MISTAKE_TEXT)) mistake = `FAILED: ${fault.error}`;
	else mistake = label(fault.error.slice(0, fault.error.indexOf(MISTAKE_TEXT)));
	if (mistake.startsWith('FAILED') || mistake.startsWith('no answer')) failures.push(`wrong API key: ${mistake}`);
	const note = wcf ? noteOf(lines.get('GetCurrency')) : undefined;
	return { stack, binding, passed, total: expected.length, mistake, failures, note };
}

function noteOf(entry) {
	if (!entry) return 'GetCurrency: no answer';
	return entry.ok
		? `GetCurrency decoded ${recordsWith(entry.result, 'Value').length} row(s)`
		: `GetCurrency: ${entry.error}`;
}

/** A short name of the exception: its type and code, without the message. */
function label(text) {
	const flat = text.replace(/\s+/g, ' ').replace(/[:\s-]+$/, '');
	return flat.length > 60 ? flat.split(': ')[0] : flat;
}

function print(rows) {
	const header = ['Stack', 'Binding', 'Operations passed', 'Wrong API key surfaces as'];
	const table = rows.map((r) => [r.stack, r.binding, `${r.passed}/${r.total}`, r.mistake]);
	const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
	const line = (cells) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
	console.log(line(header));
	console.log(line(widths.map((w) => '-'.repeat(w))));
	for (const t of table) console.log(line(t));
	const failed = rows.filter((r) => r.failures.length > 0);
	for (const r of rows.filter((row) => row.note)) console.log(`\nNote, ${r.stack} ${r.binding}: ${r.note}`);
	for (const r of failed) {
		console.log(`\n${r.stack} ${r.binding}:`);
		for (const f of r.failures) console.log(`  FAIL ${f}`);
	}
	const calls = rows.reduce((n, r) => n + r.total, 0);
	const ok = rows.reduce((n, r) => n + r.passed, 0);
	console.log(
		`\n${ok}/${calls} operation calls passed in ${rows.length} stack × binding runs; ${failed.length} run(s) with failures.`,
	);
}

await main();
