import * as assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import { API_KEY, fakeHandlers } from '../server/helpers';

interface ScenarioState {
	active: { name: string; rules: { name: string; injected: number }[] }[];
	library: { name: string; expectation: string }[];
	error?: string;
}

describe('control endpoint: /__admin/scenarios', () => {
	let emulator: RunningEmulator;
	before(async () => {
		emulator = await startEmulator({ handlers: fakeHandlers() });
	});
	after(() => emulator.stop());

	const admin = async (
		method: string,
		path = '',
		body?: unknown,
	): Promise<{ status: number; json: ScenarioState }> => {
		const response = await fetch(`${emulator.baseUrl}/__admin/scenarios${path}`, {
			method,
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		return { status: response.status, json: (await response.json()) as ScenarioState };
	};
	const currency = () => fetch(`${emulator.postingUrl}/GetCurrency?sCultureID=en&sAPIKey=${API_KEY}`);

	it('lists the library, turns a library scenario on by name and off again', async () => {
		const listed = await admin('GET');
		assert.equal(listed.status, 200);
		assert.deepEqual(listed.json.active, []);
		assert.equal(listed.json.library.length, 7);
		assert.ok(listed.json.library.every((scenario) => scenario.expectation.length > 0));

		const on = await admin('POST', '', { name: 'service-down' });
		assert.equal(on.status, 200);
		assert.deepEqual(
			on.json.active.map((scenario) => scenario.name),
			['service-down'],
		);
		const down = await currency();
		assert.equal(down.status, 503);
		assert.equal(down.headers.get('x-sandbox-injected'), 'service-down/unavailable');
		assert.equal((await admin('GET')).json.active[0].rules[0].injected, 1);

		const off = await admin('DELETE', '/service-down');
		assert.equal(off.status, 200);
		assert.deepEqual(off.json.active, []);
		assert.equal((await currency()).status, 200);
		assert.equal((await admin('DELETE', '/service-down')).status, 404);
	});

	it('turns on a scenario sent whole, and says what is wrong with a bad one', async () => {
		const rules = [{ name: 'third', match: { calls: { from: 3, to: 3 } }, effect: { kind: 'reset' } }];
		assert.equal((await admin('POST', '', { name: 'third-call', rules })).status, 200);
		assert.equal((await currency()).status, 200);
		assert.equal((await currency()).status, 200);
		await assert.rejects(currency());
		assert.equal((await currency()).status, 200);

		const bad = await admin('POST', '', {
			name: 'bad',
			rules: [{ name: 'x', effect: { kind: 'unavailable', retryAfterSeconds: 'soon' } }],
		});
		assert.equal(bad.status, 400);
		assert.equal(
			bad.json.error,
			'the request body: rule "x" (rules[0]), field effect.retryAfterSeconds: must be a whole number from 0 to 86400.',
		);
		assert.equal((await admin('POST', '', { name: 'no-such' })).status, 404);
		assert.equal((await admin('POST', '', 'not json')).status, 400);

		const cleared = await admin('DELETE');
		assert.deepEqual(cleared.json.active, []);
	});

	it('marks injected exchanges in the journal', async () => {
		await admin('POST', '', { name: 'service-down' });
		await currency();
		await admin('DELETE');
		const journal = (await (
			await fetch(`${emulator.baseUrl}/__admin/requests?operation=GetCurrency&limit=1`)
		).json()) as {
			requests: { status: number; injected?: string }[];
		};
		assert.deepEqual(
			journal.requests.map((entry) => [entry.status, entry.injected]),
			[[503, 'service-down/unavailable: unavailable']],
		);
	});
});
