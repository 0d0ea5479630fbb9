import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator';
import { parseRecording, type Recording } from '../../src/protocol/recordings/format';
import { httpsFront, makeCertificates, type TestCertificates } from '../builders/certificates';
import { advertPage, LIVE_NAMESPACE, weeksWithUnqualifiedKey } from '../builders/liveRequests';
import { rawUpstream } from '../builders/rawUpstream';
import { OTHER_TREE_API_KEY, soap11Headers, startSandbox } from '../integration/support';

const ROOT = join(__dirname, '..', '..', '..');
const SANDBOX = join(ROOT, 'dist', 'sandbox.js');

interface Answer {
	status: number;
	headers: Headers;
	body: string;
}

/** The requests of an integration under test, as a hand-written client sends them. */
const REQUESTS = {
	currency: (base: string, apiKey: string, culture = 'en-GB') => ({
		url: `${base}/SOAP/Posting.asmx/GetCurrency?sCultureID=${culture}&sAPIKey=${apiKey}`,
	}),
	/** An unqualified sAPIKey: the loose live stand-in accepts it, a strict sandbox does not. */
	weeks: (base: string, apiKey: string) => ({
		url: `${base}/SOAP/Administration.asmx`,
		headers: soap11Headers(LIVE_NAMESPACE, 'GetWeeksToAdvertise'),
		body: weeksWithUnqualifiedKey(apiKey),
	}),
	adverts: (base: string, apiKey: string) => ({
		url: `${base}/SOAP/Posting.asmx`,
		headers: soap11Headers(LIVE_NAMESPACE, 'GetAdvertPaged'),
		body: advertPage(apiKey),
	}),
};

async function send(request: { url: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
	const response = await fetch(request.url, {
		method: request.body === undefined ? 'GET' : 'POST',
		headers: request.headers,
		body: request.body,
	});
	return { status: response.status, headers: response.headers, body: await response.text() };
}

/** The three requests of the integration, sent to `base`. */
async function sendTheThree(base: string, apiKey: string): Promise<Answer[]> {
	return [
		await send(REQUESTS.currency(base, apiKey)),
		await send(REQUESTS.weeks(base, apiKey)),
		await send(REQUESTS.adverts(base, apiKey)),
	];
}

interface Cli {
	child: ChildProcess;
	ready: Record<string, unknown>;
	stderr(): string;
	/** SIGTERM; resolves with the exit code. */
	stop(): Promise<number | null>;
}

/** Starts dist/sandbox.js; resolves with its first stdout line (the ready line) parsed. */
async function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Cli> {
	const child = spawn(process.execPath, [SANDBOX, ...args], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, MP_API_KEY: '', MP_PASSWORD: '', ...env },
	});
	let out = '';
	let err = '';
	child.stderr!.on('data', (piece: Buffer) => (err += piece.toString()));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
		child.stdout!.on('data', (piece: Buffer) => {
			out += piece.toString();
			if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]) as Record<string, unknown>);
		});
		void exited.then((code) => reject(new Error(`the sandbox CLI ended (${code}) before it was ready: ${err}`)));
	});
	return {
		child,
		ready,
		stderr: () => err,
		stop: () => {
			child.kill('SIGTERM');
			return exited;
		},
	};
}

/** Polls `done` every 50 ms for up to 10 s. */
async function waitFor(done: () => boolean, what: string): Promise<void> {
	for (let waited = 0; !done(); waited += 50) {
		if (waited >= 10_000) throw new Error(`waited 10 s for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** `text` as a regular expression that matches it literally. */
function literal(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Runs dist/sandbox.js to its end. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const child = execFile(process.execPath, [SANDBOX, ...args], { timeout: 60_000 }, (_error, stdout, stderr) =>
			resolve({ code: child.exitCode, stdout, stderr }),
		);
	});
}

describe('multiposting-sandbox against the live service (dist/sandbox.js)', function () {
	this.timeout(180_000);
	let certificates: TestCertificates;
	let live: RunningEmulator;
	let front: Awaited<ReturnType<typeof httpsFront>>;
	let folder: string;
	let recordFile: string;
	/** What the proxying CLI said and did. */
	let proxied: { ready: Record<string, unknown>; answers: Answer[]; direct: Answer[]; exitCode: number | null };
	let recordingText: string;
	let recording: Recording;

	/** Arguments of a sandbox on its own folder `data` with the proxy to `upstream` (trusting the test CA), both on free ports. */
	const proxying = (data: string, upstream = front.baseUrl): string[] => [
		'--port',
		'0',
		'--data',
		join(folder, data),
		'--size',
		'small',
		'--proxy-to',
		upstream,
		'--proxy-port',
		'0',
		'--proxy-ca',
		certificates.caFile,
	];

	before(async function () {
		certificates = makeCertificates();
		live = await startSandbox({
			size: 'small',
			passwordCost: 1024,
			loose: true,
			seed: 3,
			namespace: LIVE_NAMESPACE,
		});
		front = await httpsFront(live, certificates);
		folder = mkdtempSync(join(tmpdir(), 'mp-sandbox-live-'));
		recordFile = join(folder, 'live.mprec.json');

		// The account's own key is the other tree's: the sandbox CLI knows it only from MP_API_KEY.
		const cli = await startCli([...proxying('proxying'), '--proxy-timeout', '30000', '--record', recordFile], {
			MP_API_KEY: OTHER_TREE_API_KEY,
		});
		let answers: Answer[];
		let direct: Answer[];
		try {
			const base = String(cli.ready.proxyUrl);
			answers = await sendTheThree(base, OTHER_TREE_API_KEY);
			// One request with a key other than the account's own (the demo administrator's).
			answers.push(await send(REQUESTS.currency(base, live.demo.apiKey, 'de-DE')));
			direct = await sendTheThree(live.baseUrl, OTHER_TREE_API_KEY);
			direct.push(await send(REQUESTS.currency(live.baseUrl, live.demo.apiKey, 'de-DE')));
		} finally {
			const exitCode = await cli.stop();
			proxied = { ready: cli.ready, answers: [], direct: [], exitCode };
		}
		proxied.answers = answers;
		proxied.direct = direct;
		recordingText = readFileSync(recordFile, 'utf8');
		recording = parseRecording(recordingText, recordFile);
	});
	after(async () => {
		await front?.close();
		await live?.stop();
		certificates?.remove();
		if (folder) rmSync(folder, { recursive: true, force: true });
	});

	describe('--proxy-to', () => {
		it('prints the proxy, the upstream and its namespace (from its WSDL) in the ready line', () => {
			const { ready } = proxied;
			assert.match(String(ready.proxyUrl), /^http:\/\/127\.0\.0\.1:\d+$/);
			assert.notEqual(ready.proxyUrl, ready.baseUrl);
			assert.equal(ready.upstream, front.baseUrl);
			assert.equal(ready.upstreamNamespace, LIVE_NAMESPACE);
			assert.match(String(ready.baseUrl), /^http:\/\/127\.0\.0\.1:\d+$/);
			assert.equal(typeof ready.apiKey, 'string');
			assert.equal(ready.replay, undefined);
			assert.equal(proxied.exitCode, 0, 'stops on SIGTERM');
		});

		it('forwards every request to the HTTPS upstream (trusted with --proxy-ca) and its answer back unchanged', () => {
			assert.deepEqual(
				proxied.answers.map((answer) => answer.status),
				[200, 200, 200, 200],
			);
			assert.deepEqual(
				proxied.answers.map((answer) => answer.body),
				proxied.direct.map((answer) => answer.body),
			);
		});

		it('logs where the proxy forwards and where its namespace came from; a guess (the WSDL unreadable) with why', async () => {
			const closed = await rawUpstream(() => undefined);
			const upstream = closed.url;
			await closed.close();
			const cli = await startCli(proxying('guessed', upstream));
			try {
				assert.equal(cli.ready.upstreamNamespace, `${upstream}/`);
				await waitFor(() => cli.stderr().includes('note:'), 'the note in the log');
				const escaped = literal(upstream);
				assert.match(
					cli.stderr(),
					new RegExp(
						`proxy on: http://127\\.0\\.0\\.1:\\d+ forwards to ${escaped} \\(namespace ${escaped}/, base URL \\+ '/'\\)`,
					),
				);
				assert.match(
					cli.stderr(),
					/note: the upstream's WSDL \(.+\?WSDL\) could not be read: http:\/\/127\.0\.0\.1:\d+ could not be reached: connect ECONNREFUSED 127\.0\.0\.1:\d+\. Requests are judged against the namespace/,
				);
			} finally {
				assert.equal(await cli.stop(), 0);
			}
			// Read from the WSDL: said so, without a note.
			const read = await startCli(proxying('read'));
			try {
				await waitFor(() => read.stderr().includes('proxy on:'), 'the proxy line in the log');
				assert.match(
					read.stderr(),
					new RegExp(`proxy on: .+ \\(namespace ${literal(LIVE_NAMESPACE)}, from its WSDL\\)`),
				);
				assert.doesNotMatch(read.stderr(), /note:/);
			} finally {
				assert.equal(await read.stop(), 0);
			}
		});

		it('takes --proxy-namespace and --proxy-posting-path instead of reading the WSDL', async () => {
			const cli = await startCli([
				...proxying('named'),
				'--proxy-namespace',
				'https://named.example.com/',
				'--proxy-posting-path',
				'/SOAP/Posting.asmx',
			]);
			try {
				assert.equal(cli.ready.upstreamNamespace, 'https://named.example.com/');
				const answer = await send(REQUESTS.currency(String(cli.ready.proxyUrl), live.demo.apiKey));
				assert.equal(answer.status, 200);
			} finally {
				assert.equal(await cli.stop(), 0);
			}
		});
	});

	describe('--break', () => {
		it('holds the requests to the upstream that match until decided at /__admin/held', async () => {
			const cli = await startCli([
				...proxying('break'),
				'--break',
				'GetCurrency',
				'--break',
				'op:GetAdvertPaged client:127.0.0.1',
			]);
			try {
				const admin = `${String(cli.ready.baseUrl)}/__admin`;
				const state = (await (await fetch(`${admin}/breakpoints`)).json()) as {
					breakpoints: { operation?: string; filter?: string }[];
					version: number;
				};
				assert.deepEqual(
					state.breakpoints.map((breakpoint) => [breakpoint.operation, breakpoint.filter]),
					[
						['GetCurrency', undefined],
						[undefined, 'op:GetAdvertPaged client:127.0.0.1'],
					],
				);
				const pending = send(REQUESTS.currency(String(cli.ready.proxyUrl), live.demo.apiKey));
				const waited = (await (await fetch(`${admin}/held?after=${state.version}&wait=30`)).json()) as {
					held: { id: number; operation: string }[];
				};
				assert.deepEqual(
					waited.held.map((held) => held.operation),
					['GetCurrency'],
				);
				const decided = await fetch(`${admin}/held/${waited.held[0].id}`, {
					method: 'POST',
					body: JSON.stringify({ action: 'release' }),
				});
				assert.equal(decided.status, 200);
				const answer = await pending;
				assert.equal(answer.status, 200);
				assert.equal(answer.body, (await send(REQUESTS.currency(live.baseUrl, live.demo.apiKey))).body);
			} finally {
				assert.equal(await cli.stop(), 0);
			}
		});
	});

	describe('--record', () => {
		it('writes every proxied exchange into the recording, with no credential left', () => {
			assert.deepEqual([...recording.exchanges.map((exchange) => exchange.operation)].sort(), [
				'GetAdvertPaged',
				'GetCurrency',
				'GetCurrency',
				'GetWeeksToAdvertise',
			]);
			assert.equal(recording.upstream, front.baseUrl);
			assert.equal(recording.namespace, LIVE_NAMESPACE);
			assert.ok(!recordingText.includes(OTHER_TREE_API_KEY), "the account's own key is not in the recording");
			assert.ok(!recordingText.includes(live.demo.apiKey), 'no other key is in the recording');
			assert.match(recordingText, /\{\{connection\.apiKey\}\}/);
			for (const exchange of recording.exchanges) {
				const sentAt = proxied.answers.findIndex(
					(answer) => answer.body === exchange.response.body && answer.status === exchange.response.status,
				);
				assert.ok(sentAt >= 0, `exchange ${exchange.id}: the recorded answer is the bytes the client got`);
			}
		});

		it('marks the request that carried a key other than MP_API_KEY', () => {
			const marked = recording.exchanges.filter((exchange) => exchange.otherCredentials);
			assert.equal(marked.length, 1);
			assert.equal(marked[0].operation, 'GetCurrency');
			assert.match(marked[0].request.query, /sCultureID=de-DE/);
		});
	});

	describe('--replay', () => {
		const replayArgs = (name: string, ...more: string[]) => [
			'--port',
			'0',
			'--data',
			join(folder, name),
			'--size',
			'small',
			...more,
		];
		const exchangeOf = (operation: string, culture?: string) =>
			recording.exchanges.find(
				(exchange) =>
					exchange.operation === operation &&
					(culture === undefined || exchange.request.query.includes(`sCultureID=${culture}`)),
			)!;

		it('strict: answers a recorded request byte for byte whatever the key, and an unrecorded one with NotRecorded', async () => {
			const cli = await startCli(replayArgs('strict', '--replay', recordFile));
			try {
				assert.equal(cli.ready.namespace, LIVE_NAMESPACE, "the sandbox takes the recording's namespace");
				assert.deepEqual(cli.ready.replay, { mode: 'strict', recordings: ['live.mprec.json'] });
				const base = String(cli.ready.baseUrl);
				const replayed = await sendTheThree(base, 'whatever-key-the-ci-has');
				assert.deepEqual(
					replayed.map((answer) => [answer.status, answer.body]),
					proxied.answers.slice(0, 3).map((answer) => [answer.status, answer.body]),
				);
				assert.equal(
					replayed[0].headers.get('x-sandbox-replayed'),
					`live.mprec.json#${exchangeOf('GetCurrency', 'en-GB').id}`,
				);
				const unmatched = await send(REQUESTS.currency(base, 'k', 'fr-FR'));
				assert.equal(unmatched.status, 500);
				assert.match(
					unmatched.body,
					/Not in the recording \(strict replay\); the closest recorded request is live\.mprec\.json #\d+, where sCultureID: "fr-FR" sent, "(en-GB|de-DE)" recorded\./,
				);
			} finally {
				assert.equal(await cli.stop(), 0);
			}
		});

		it('answers from several recordings given with --replay', async () => {
			const first = { ...recording, exchanges: recording.exchanges.filter((e) => e.operation === 'GetCurrency') };
			const second = {
				...recording,
				exchanges: recording.exchanges.filter((e) => e.operation !== 'GetCurrency'),
			};
			const a = join(folder, 'a.mprec.json');
			const b = join(folder, 'b.mprec.json');
			writeFileSync(a, JSON.stringify(first));
			writeFileSync(b, JSON.stringify(second));
			const cli = await startCli(replayArgs('two', '--replay', a, '--replay', b));
			try {
				assert.deepEqual(cli.ready.replay, { mode: 'strict', recordings: ['a.mprec.json', 'b.mprec.json'] });
				assert.equal(cli.ready.namespace, LIVE_NAMESPACE);
				const base = String(cli.ready.baseUrl);
				const [currency, weeks, adverts] = await sendTheThree(base, 'k');
				assert.equal(
					currency.headers.get('x-sandbox-replayed'),
					`a.mprec.json#${exchangeOf('GetCurrency', 'en-GB').id}`,
				);
				assert.equal(
					weeks.headers.get('x-sandbox-replayed'),
					`b.mprec.json#${exchangeOf('GetWeeksToAdvertise').id}`,
				);
				assert.equal(
					adverts.headers.get('x-sandbox-replayed'),
					`b.mprec.json#${exchangeOf('GetAdvertPaged').id}`,
				);
				assert.equal(weeks.body, proxied.answers[1].body);
				const unmatched = await send(REQUESTS.currency(base, 'k', 'fr-FR'));
				assert.equal(unmatched.status, 500);
				assert.match(unmatched.body, /the closest recorded request is a\.mprec\.json #\d+/);
			} finally {
				assert.equal(await cli.stop(), 0);
			}
		});

		it('--replay-mode fall-through: what is not recorded goes to the sandbox', async () => {
			const cli = await startCli(replayArgs('fall', '--replay', recordFile, '--replay-mode', 'fall-through'));
			try {
				assert.deepEqual(cli.ready.replay, { mode: 'fallThrough', recordings: ['live.mprec.json'] });
				const base = String(cli.ready.baseUrl);
				const own = String(cli.ready.apiKey);
				const unrecorded = await send(REQUESTS.currency(base, own, 'fr-FR'));
				assert.equal(unrecorded.status, 200, unrecorded.body);
				assert.equal(unrecorded.headers.get('x-sandbox-replayed'), null);
				assert.match(unrecorded.body, /<CultureID>fr-FR<\/CultureID>/);
				const recorded = await send(REQUESTS.weeks(base, own));
				assert.equal(recorded.status, 200);
				assert.equal(recorded.body, proxied.answers[1].body);
				assert.match(String(recorded.headers.get('x-sandbox-replayed')), /^live\.mprec\.json#\d+$/);
			} finally {
				assert.equal(await cli.stop(), 0);
			}
		});
	});

	describe('bad flags', () => {
		it('says what is wrong, without a stack trace, and exits non-zero', async () => {
			const notPem = join(folder, 'not.pem');
			writeFileSync(notPem, 'hello');
			const notJson = join(folder, 'not-json.mprec.json');
			writeFileSync(notJson, '{"format": "multiposting-recording", "version": 1');
			const notRecording = join(folder, 'not-a-recording.mprec.json');
			writeFileSync(notRecording, '{"format": "something-else"}');
			const aFolder = join(folder, 'a-folder.mprec.json');
			mkdirSync(aFolder, { recursive: true });
			const missing = join(folder, 'missing.mprec.json');
			const url = front.baseUrl;
			const cases: [string[], RegExp][] = [
				[['--proxy-port', '0'], /--proxy-port needs --proxy-to URL/],
				[['--proxy-ca', certificates.caFile], /--proxy-ca needs --proxy-to URL/],
				[['--record', recordFile], /--record and --break need --proxy-to/],
				[['--break', 'AddAdvert'], /--record and --break need --proxy-to/],
				[['--proxy-to', 'ftp://127.0.0.1/'], /--proxy-to must be an http or https URL/],
				[['--proxy-to', 'not a url'], /--proxy-to must be an http or https URL/],
				[['--proxy-to', url, '--proxy-via', 'nowhere'], /--proxy-via must be an http or https URL/],
				[['--proxy-to', url, '--proxy-port', '70000'], /--proxy-port must be a whole number from 0 to 65535/],
				[['--proxy-to', url, '--proxy-timeout', '5'], /--proxy-timeout must be a whole number from 100/],
				[
					['--proxy-to', url, '--proxy-posting-path', 'SOAP/Posting.asmx'],
					/--proxy-posting-path must start with \//,
				],
				[
					['--proxy-to', url, '--proxy-ca', missing],
					/--proxy-ca .*missing\.mprec\.json: cannot read it \(ENOENT\)/,
				],
				[['--proxy-to', url, '--proxy-ca', notPem], /--proxy-ca .*not\.pem is not a PEM certificate/],
				[['--proxy-to', url, '--no-journal'], /--no-journal cannot go with --proxy-to/],
				[['--replay-mode', 'strict'], /--replay-mode needs --replay FILE/],
				[['--replay', recordFile, '--replay-mode', 'loose'], /--replay-mode must be strict or fall-through/],
				[['--replay', missing], /--replay .*missing\.mprec\.json: cannot read it \(ENOENT\)/],
				[['--replay', aFolder], /--replay .*a-folder\.mprec\.json: cannot read it \(EISDIR\)/],
				[['--replay', notJson], /not-json\.mprec\.json/],
				[['--replay', notRecording], /not-a-recording\.mprec\.json/],
				[['--replay'], /--replay/],
				[['--proxy-too', url], /--proxy-too/],
			];
			for (const [args, message] of cases) {
				const { code, stdout, stderr } = await runCli(args);
				const what = `${args.join(' ')}: ${code} ${stderr}`;
				assert.equal(code, 2, what);
				assert.equal(stdout, '', what);
				assert.match(stderr, /^multiposting-sandbox: /, what);
				assert.match(stderr, message, what);
				assert.doesNotMatch(stderr, /\n\s+at /, `${what}: no stack trace`);
			}
		});

		it('names --proxy-port when the proxy port is taken', async () => {
			const taken = (live.server.address() as AddressInfo).port;
			const { code, stdout, stderr } = await runCli([
				'--port',
				'0',
				'--data',
				join(folder, 'taken'),
				'--size',
				'small',
				'--proxy-to',
				front.baseUrl,
				'--proxy-ca',
				certificates.caFile,
				'--proxy-port',
				String(taken),
			]);
			assert.equal(code, 1, stderr);
			assert.equal(stdout, '');
			assert.match(
				stderr,
				new RegExp(`multiposting-sandbox: port ${taken} on 127\\.0\\.0\\.1 is already in use`),
			);
			assert.match(stderr, /--proxy-port 0 takes any free port/);
			assert.doesNotMatch(stderr, /\n\s+at /);
		});
	});
});
