import * as assert from 'node:assert/strict';
import type { RunningEmulator } from '../../../src/emulator';
import { parseRecording } from '../../../src/protocol/recordings/format';
import type { TestCertificates } from '../../builders/certificates';
import { startLiveStandIn, type LiveStandIn } from '../../builders/liveStandIn';
import { SANDBOX_START_TIMEOUT_MS } from '../../integration/support';

interface Answer {
	status: number;
	headers: Headers;
	text: string;
}

async function send(url: string, method = 'GET', body?: string): Promise<Answer> {
	const response = await fetch(url, { method, body });
	return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A control call: its status and JSON body (every answer of the control endpoint is JSON). */
async function control(
	sandbox: RunningEmulator,
	method: string,
	path: string,
	body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
	const answer = await send(`${sandbox.baseUrl}${path}`, method, body);
	assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}: ${answer.text}`);
	return { status: answer.status, json: JSON.parse(answer.text) as Record<string, unknown> };
}

const currency = (base: string, culture: string, key: string, extra = ''): string =>
	`${base}/SOAP/Posting.asmx/GetCurrency?sCultureID=${culture}&sAPIKey=${key}${extra}`;

/** The id of the newest journaled exchange. */
async function lastId(sandbox: RunningEmulator): Promise<number> {
	const { json } = await control(sandbox, 'GET', '/__admin/requests?limit=1');
	return (json.requests as { id: number }[])[0].id;
}

describe('control routes of debugging against the live service', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS * 2);
	let standIn: LiveStandIn;
	let certificates: TestCertificates;
	let live: RunningEmulator;
	let front: LiveStandIn['front'];
	let sandbox: RunningEmulator;

	before(async () => {
		standIn = await startLiveStandIn({ loose: true });
		({ certificates, live, front, sandbox } = standIn);
	});
	after(() => standIn?.stop());
	afterEach(async () => {
		await sandbox.proxy.stop();
		sandbox.replay.clear();
		sandbox.breakpoints.clear();
	});

	/** Starts the proxy through the control endpoint; returns its URL. */
	async function startProxy(options: Record<string, unknown>): Promise<string> {
		const started = await control(sandbox, 'POST', '/__admin/proxy', JSON.stringify({ port: 0, ...options }));
		assert.equal(started.status, 200, JSON.stringify(started.json));
		return (started.json.proxy as { url: string }).url;
	}

	/** A recording of one GetCurrency (en-GB) answered by the live stand-in through the proxy. */
	async function recordedCurrency(): Promise<{ text: string; id: number; body: string }> {
		const proxyUrl = await startProxy({ upstream: live.baseUrl });
		const answer = await send(currency(proxyUrl, 'en-GB', live.demo.apiKey));
		assert.equal(answer.status, 200);
		const id = await lastId(sandbox);
		const saved = await control(sandbox, 'POST', '/__admin/recordings', JSON.stringify({ ids: [id] }));
		assert.equal(saved.status, 200, JSON.stringify(saved.json));
		return { text: saved.json.text as string, id, body: answer.text };
	}

	describe('/__admin/proxy', () => {
		it('starts the proxy to an HTTPS upstream trusting a CA, forwards the bytes, shows it and stops it', async () => {
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/proxy')).json, { proxy: null });
			const started = await control(
				sandbox,
				'POST',
				'/__admin/proxy',
				JSON.stringify({ upstream: front.baseUrl, port: 0, ca: certificates.ca }),
			);
			assert.equal(started.status, 200, JSON.stringify(started.json));
			const proxy = started.json.proxy as Record<string, unknown>;
			assert.equal(proxy.upstream, front.baseUrl);
			assert.equal(proxy.namespace, live.namespace);
			assert.equal(proxy.namespaceFrom, 'wsdl');
			assert.match(String(proxy.url), /^http:\/\/127\.0\.0\.1:\d+$/);

			const direct = await send(currency(live.baseUrl, 'en-GB', live.demo.apiKey));
			const proxied = await send(currency(String(proxy.url), 'en-GB', live.demo.apiKey));
			assert.equal(proxied.status, direct.status);
			assert.equal(proxied.text, direct.text, 'the answer comes back unchanged');
			const journaled = await control(sandbox, 'GET', `/__admin/requests/${await lastId(sandbox)}`);
			assert.equal(journaled.json.upstream, front.baseUrl);

			assert.equal(
				((await control(sandbox, 'GET', '/__admin/proxy')).json.proxy as { url: string }).url,
				proxy.url,
			);
			assert.deepEqual((await control(sandbox, 'DELETE', '/__admin/proxy')).json, { stopped: true });
			assert.deepEqual((await control(sandbox, 'DELETE', '/__admin/proxy')).json, { stopped: false });
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/proxy')).json, { proxy: null });
			await assert.rejects(send(currency(String(proxy.url), 'en-GB', live.demo.apiKey)));
		});

		it('moves a running proxy to another upstream when started again', async () => {
			await startProxy({ upstream: live.baseUrl });
			const again = await control(
				sandbox,
				'POST',
				'/__admin/proxy',
				JSON.stringify({ upstream: front.baseUrl, port: 0, ca: certificates.ca }),
			);
			assert.equal(again.status, 200);
			assert.equal((sandbox.proxy.current() ?? { upstream: '' }).upstream, front.baseUrl);
		});

		it('refuses bad options with a 4xx JSON error naming the field, and keeps answering', async () => {
			const upstream = live.baseUrl;
			const cases: [string, RegExp][] = [
				['not json', /must be JSON/],
				['null', /JSON object/],
				['[1]', /JSON object/],
				['{}', /upstream is missing/],
				[JSON.stringify({ upstream: 5 }), /upstream must be text/],
				[JSON.stringify({ upstream, port: 'any' }), /port must be a whole number/],
				[JSON.stringify({ upstream, port: 70_000 }), /port must be a whole number/],
				[JSON.stringify({ upstream, timeoutMs: 5 }), /timeoutMs/],
				[JSON.stringify({ upstream, ca: 'not a certificate' }), /ca must be PEM/],
				[JSON.stringify({ upstream, credentials: 'secret' }), /credentials must be/],
				[JSON.stringify({ upstream, credentials: { apiKey: 5 } }), /credentials must be/],
				[JSON.stringify({ upstream, colour: 'blue' }), /colour is not an option/],
			];
			for (const [body, message] of cases) {
				const answer = await control(sandbox, 'POST', '/__admin/proxy', body);
				assert.equal(answer.status, 400, body);
				assert.match(String(answer.json.error), message, body);
			}
			for (const upstream of ['not a url', 'ftp://127.0.0.1/']) {
				const answer = await control(sandbox, 'POST', '/__admin/proxy', JSON.stringify({ upstream, port: 0 }));
				assert.ok(answer.status >= 400 && answer.status < 500, `${upstream}: ${answer.status}`);
				assert.equal(typeof answer.json.error, 'string');
			}
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/proxy')).json, { proxy: null });
		});
	});

	describe('/__admin/replay', () => {
		it('answers from a recording (strict: an unrecorded request gets NotRecorded), fall-through, then off', async () => {
			const { text, id, body } = await recordedCurrency();
			await sandbox.proxy.stop();
			const strict = await control(
				sandbox,
				'POST',
				'/__admin/replay',
				JSON.stringify({ mode: 'strict', recordings: [{ name: 'live.mprec.json', text }] }),
			);
			assert.equal(strict.status, 200, JSON.stringify(strict.json));
			const info = strict.json.replay as { mode: string; recordings: { name: string }[] };
			assert.equal(info.mode, 'strict');
			assert.deepEqual(
				info.recordings.map((recording) => recording.name),
				['live.mprec.json'],
			);
			assert.equal(
				((await control(sandbox, 'GET', '/__admin/replay')).json.replay as { mode: string }).mode,
				'strict',
			);

			const replayed = await send(currency(sandbox.baseUrl, 'en-GB', 'any-key-at-all'));
			assert.equal(replayed.status, 200);
			assert.equal(replayed.text, body, 'the recorded answer, byte for byte');
			assert.equal(replayed.headers.get('x-sandbox-replayed'), `live.mprec.json#${id}`);
			const unmatched = await send(currency(sandbox.baseUrl, 'fr-FR', sandbox.demo.apiKey));
			assert.equal(unmatched.status, 500);
			assert.equal(unmatched.headers.get('x-sandbox-replayed'), 'unmatched');
			assert.match(
				unmatched.text,
				new RegExp(
					`Not in the recording \\(strict replay\\); the closest recorded request is live\\.mprec\\.json #${id}, where sCultureID: "fr-FR" sent, "en-GB" recorded\\.`,
				),
			);

			const fallThrough = await control(
				sandbox,
				'POST',
				'/__admin/replay',
				JSON.stringify({ mode: 'fallThrough', recordings: [{ name: 'live.mprec.json', text }] }),
			);
			assert.equal(fallThrough.status, 200);
			assert.equal((fallThrough.json.replay as { mode: string }).mode, 'fallThrough');
			const toSandbox = await send(currency(sandbox.baseUrl, 'fr-FR', sandbox.demo.apiKey));
			assert.equal(toSandbox.status, 200, toSandbox.text);
			assert.equal(toSandbox.headers.get('x-sandbox-replayed'), null);
			assert.match(toSandbox.text, /<CultureID>fr-FR<\/CultureID>/);
			const stillReplayed = await send(currency(sandbox.baseUrl, 'en-GB', sandbox.demo.apiKey));
			assert.equal(stillReplayed.headers.get('x-sandbox-replayed'), `live.mprec.json#${id}`);

			assert.deepEqual((await control(sandbox, 'DELETE', '/__admin/replay')).json, { stopped: true });
			assert.deepEqual((await control(sandbox, 'DELETE', '/__admin/replay')).json, { stopped: false });
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/replay')).json, { replay: null });
			const after = await send(currency(sandbox.baseUrl, 'fr-FR', sandbox.demo.apiKey));
			assert.equal(after.status, 200);
			assert.equal(after.headers.get('x-sandbox-replayed'), null);
		});

		it('takes a recording as a JSON object too', async () => {
			const { text } = await recordedCurrency();
			const loaded = await control(
				sandbox,
				'POST',
				'/__admin/replay',
				JSON.stringify({ recordings: [{ name: 'object.mprec.json', recording: parseRecording(text, 'x') }] }),
			);
			assert.equal(loaded.status, 200, JSON.stringify(loaded.json));
			assert.equal((loaded.json.replay as { mode: string }).mode, 'strict', 'strict by default');
		});

		it('refuses bad input with a 4xx JSON error and leaves replay off', async () => {
			const { text } = await recordedCurrency();
			const cases: [string, RegExp][] = [
				['not json', /must be JSON/],
				['null', /recordings must be a list/],
				['{}', /recordings must be a list/],
				[JSON.stringify({ recordings: [] }), /recordings must be a list/],
				[
					JSON.stringify({ mode: 'loose', recordings: [{ name: 'a', text }] }),
					/mode must be strict or fallThrough/,
				],
				[JSON.stringify({ mode: 'fall-through', recordings: [{ name: 'a', text }] }), /mode must be/],
				[JSON.stringify({ recordings: [{ name: 'broken.mprec.json', text: '{' }] }), /broken\.mprec\.json/],
				[JSON.stringify({ recordings: [{ name: 'empty.mprec.json', text: '{}' }] }), /empty\.mprec\.json/],
				[JSON.stringify({ recordings: [null] }), /recording 1/],
			];
			for (const [body, message] of cases) {
				const answer = await control(sandbox, 'POST', '/__admin/replay', body);
				assert.equal(answer.status, 400, `${body}: ${JSON.stringify(answer.json)}`);
				assert.match(String(answer.json.error), message, body);
			}
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/replay')).json, { replay: null });
		});
	});

	describe('/__admin/recordings', () => {
		it('saves journaled exchanges of the live service as a recording without any credential', async () => {
			const proxyUrl = await startProxy({ upstream: live.baseUrl });
			const first = await send(currency(proxyUrl, 'en-GB', live.demo.apiKey));
			const firstId = await lastId(sandbox);
			const second = await send(currency(proxyUrl, 'de-DE', live.demo.apiKey));
			const secondId = await lastId(sandbox);
			const saved = await control(
				sandbox,
				'POST',
				'/__admin/recordings',
				JSON.stringify({ ids: [secondId, firstId] }),
			);
			assert.equal(saved.status, 200, JSON.stringify(saved.json));
			assert.equal(saved.json.exchanges, 2);
			assert.equal(saved.json.upstream, live.baseUrl);
			const text = saved.json.text as string;
			assert.ok(!text.includes(live.demo.apiKey), 'no API key in the recording');
			assert.match(text, /\{\{connection\.apiKey\}\}/);
			const recording = parseRecording(text, 'saved');
			assert.deepEqual(
				recording.exchanges.map((exchange) => exchange.id),
				[firstId, secondId],
				'oldest first',
			);
			assert.deepEqual(
				recording.exchanges.map((exchange) => exchange.response.body),
				[first.text, second.text],
			);
			assert.equal(recording.namespace, live.namespace);
		});

		it('refuses what cannot be recorded or would keep a credential (409), and bad input (4xx)', async () => {
			// A request carrying a key (refused), then one whose free text holds that key: the journal
			// hides only each request's own credentials, so the second keeps it, and saving it is refused.
			const leaked = 'not-a-real-api-key-4242';
			assert.equal((await send(currency(sandbox.baseUrl, 'en-GB', leaked))).status, 500);
			await send(currency(sandbox.baseUrl, 'en-GB', sandbox.demo.apiKey, `&note=${leaked}`));
			const leaking = await lastId(sandbox);
			const credential = await control(
				sandbox,
				'POST',
				'/__admin/recordings',
				JSON.stringify({ ids: [leaking] }),
			);
			assert.equal(credential.status, 409);
			assert.match(String(credential.json.error), /would keep a credential/);
			assert.ok(!JSON.stringify(credential.json).includes(leaked));

			// The sandbox's own exchange and the live service's do not go into one recording.
			const proxyUrl = await startProxy({ upstream: live.baseUrl });
			await send(currency(proxyUrl, 'en-GB', live.demo.apiKey));
			const proxied = await lastId(sandbox);
			await send(currency(sandbox.baseUrl, 'en-GB', sandbox.demo.apiKey));
			const own = await lastId(sandbox);
			const mixed = await control(
				sandbox,
				'POST',
				'/__admin/recordings',
				JSON.stringify({ ids: [proxied, own] }),
			);
			assert.equal(mixed.status, 409);
			assert.match(String(mixed.json.error), /exchanges of one service/);

			// Without the CA the upstream's certificate is refused: the proxy answers itself, not recordable.
			const untrusted = await startProxy({ upstream: front.baseUrl, namespace: live.namespace });
			const refused = await send(currency(untrusted, 'en-GB', live.demo.apiKey));
			assert.ok(refused.status >= 500, `${refused.status}`);
			const proxyAnswered = await lastId(sandbox);
			const unrecordable = await control(
				sandbox,
				'POST',
				'/__admin/recordings',
				JSON.stringify({ ids: [proxyAnswered] }),
			);
			assert.equal(unrecordable.status, 409);
			assert.match(String(unrecordable.json.error), /answered by the proxy itself/);

			const cases: [string, number, RegExp][] = [
				['not json', 400, /must be JSON/],
				['null', 400, /Say which exchanges/],
				['{}', 400, /Say which exchanges/],
				[JSON.stringify({ ids: ['one'] }), 400, /whole numbers/],
				[JSON.stringify({ ids: [1.5] }), 400, /whole numbers/],
				[JSON.stringify({ ids: [987_654] }), 404, /No exchange 987654/],
				[JSON.stringify({ ids: [] }), 409, /No exchanges to record/],
			];
			for (const [body, status, message] of cases) {
				const answer = await control(sandbox, 'POST', '/__admin/recordings', body);
				assert.equal(answer.status, status, `${body}: ${JSON.stringify(answer.json)}`);
				assert.match(String(answer.json.error), message, body);
			}
		});
	});

	describe('/__admin/breakpoints', () => {
		it('adds, lists, removes and clears breakpoints', async () => {
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/breakpoints')).json.breakpoints, []);
			const first = await control(
				sandbox,
				'POST',
				'/__admin/breakpoints',
				JSON.stringify({ operation: 'AddAdvert' }),
			);
			assert.equal(first.status, 201);
			const added = first.json.breakpoint as { id: number; operation: string };
			assert.equal(added.operation, 'AddAdvert');
			const second = await control(
				sandbox,
				'POST',
				'/__admin/breakpoints',
				JSON.stringify({ filter: 'op:GetAdvertPaged client:127.0.0.1', holdMs: 5000 }),
			);
			assert.equal(second.status, 201);
			const listed = (await control(sandbox, 'GET', '/__admin/breakpoints')).json.breakpoints as {
				id: number;
			}[];
			assert.equal(listed.length, 2);

			const removed = await control(sandbox, 'DELETE', `/__admin/breakpoints/${added.id}`);
			assert.equal(removed.status, 200);
			assert.deepEqual(
				(removed.json.breakpoints as { id: number }[]).map((breakpoint) => breakpoint.id),
				[(second.json.breakpoint as { id: number }).id],
			);
			const again = await control(sandbox, 'DELETE', `/__admin/breakpoints/${added.id}`);
			assert.equal(again.status, 404);
			assert.equal(typeof again.json.error, 'string');
			const cleared = await control(sandbox, 'DELETE', '/__admin/breakpoints');
			assert.equal(cleared.status, 200);
			assert.deepEqual(cleared.json.breakpoints, []);
		});

		it('holds a proxied request until it is decided at /__admin/held', async () => {
			const proxyUrl = await startProxy({ upstream: live.baseUrl });
			const set = await control(
				sandbox,
				'POST',
				'/__admin/breakpoints',
				JSON.stringify({ operation: 'GetCurrency' }),
			);
			const version = set.json.version as number;
			const pending = send(currency(proxyUrl, 'en-GB', live.demo.apiKey));
			const waited = await control(sandbox, 'GET', `/__admin/held?after=${version}&wait=30`);
			const held = waited.json.held as { id: number; operation: string; query: string }[];
			assert.equal(held.length, 1);
			assert.equal(held[0].operation, 'GetCurrency');
			assert.ok(!held[0].query.includes(live.demo.apiKey), 'held requests are shown redacted');

			const bad = await control(
				sandbox,
				'POST',
				`/__admin/held/${held[0].id}`,
				JSON.stringify({ action: 'drop' }),
			);
			assert.equal(bad.status, 400);
			assert.match(String(bad.json.error), /action must be send, fault or release/);
			const decided = await control(
				sandbox,
				'POST',
				`/__admin/held/${held[0].id}`,
				JSON.stringify({ action: 'fault', fault: { code: 'Server', message: 'Held and refused here.' } }),
			);
			assert.equal(decided.status, 200, JSON.stringify(decided.json));
			const answer = await pending;
			assert.equal(answer.status, 500);
			assert.match(answer.text, /Held and refused here\./);
			const late = await control(
				sandbox,
				'POST',
				`/__admin/held/${held[0].id}`,
				JSON.stringify({ action: 'release' }),
			);
			assert.equal(late.status, 404);
		});

		it('refuses bad input with a 4xx JSON error', async () => {
			const cases: [string, string, string, RegExp][] = [
				['POST', '/__admin/breakpoints', 'not json', /JSON object/],
				['POST', '/__admin/breakpoints', 'null', /JSON object/],
				['POST', '/__admin/breakpoints', '["AddAdvert"]', /JSON object/],
				['POST', '/__admin/breakpoints', '{}', /needs an operation or a filter/],
				['POST', '/__admin/breakpoints', JSON.stringify({ operation: 5 }), /operation must be text/],
				['POST', '/__admin/breakpoints', JSON.stringify({ filter: ['op:AddAdvert'] }), /filter must be text/],
				[
					'POST',
					'/__admin/breakpoints',
					JSON.stringify({ operation: 'AddAdvert', holdMs: 'long' }),
					/holdMs must be a whole number/,
				],
				['POST', '/__admin/held/1', 'null', /JSON object/],
				['POST', '/__admin/held/1', JSON.stringify({ action: 'fault' }), /fault must be/],
				[
					'POST',
					'/__admin/held/1',
					JSON.stringify({ action: 'fault', fault: { code: 'Teapot', message: 'x' } }),
					/fault\.code must be Client or Server/,
				],
				['POST', '/__admin/held/1', JSON.stringify({ action: 'send', body: 5 }), /body must be text/],
				['POST', '/__admin/held/987654', JSON.stringify({ action: 'release' }), /not held/],
				['GET', '/__admin/held/987654', '', /not held/],
				['DELETE', '/__admin/breakpoints/987654', '', /No breakpoint 987654/],
			];
			for (const [method, path, body, message] of cases) {
				const answer = await control(sandbox, method, path, method === 'GET' ? undefined : body);
				assert.ok(answer.status >= 400 && answer.status < 500, `${method} ${path} ${body}: ${answer.status}`);
				assert.match(String(answer.json.error), message, `${method} ${path} ${body}`);
			}
			assert.deepEqual((await control(sandbox, 'GET', '/__admin/breakpoints')).json.breakpoints, []);
		});
	});
});
