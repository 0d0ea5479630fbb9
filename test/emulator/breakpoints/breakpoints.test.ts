import * as assert from 'node:assert/strict';
import {
	Breakpoints,
	DEFAULT_HOLD_MS,
	MAX_HELD,
	type HeldRequest,
	type HoldCandidate,
} from '../../../src/emulator/breakpoints/breakpoints';

const candidate = (extra: Partial<HoldCandidate> = {}): HoldCandidate => ({
	client: '127.0.0.1',
	operation: 'GetAdvertPaged',
	path: '/SOAP/Posting.asmx',
	query: '',
	body: '<GetAdvertPaged><sAPIKey>{{connection.apiKey}}</sAPIKey><sAdvertID>42</sAdvertID></GetAdvertPaged>',
	...extra,
});

const request = (extra: Partial<HeldRequest> = {}): Omit<HeldRequest, 'id' | 'breakpoint' | 'time' | 'releaseAt'> => ({
	client: '127.0.0.1',
	upstream: 'https://live.example.com',
	method: 'POST',
	path: '/SOAP/Posting.asmx',
	query: '',
	headers: { 'content-type': 'text/xml; charset=utf-8' },
	body: '<GetAdvertPaged><sAPIKey>{{connection.apiKey}}</sAPIKey></GetAdvertPaged>',
	endpoint: 'posting',
	binding: 'soap11',
	operation: 'GetAdvertPaged',
	...extra,
});

describe('Breakpoints', () => {
	let breakpoints: Breakpoints;
	beforeEach(() => {
		breakpoints = new Breakpoints();
	});
	afterEach(() => breakpoints.clear());

	describe('setting them', () => {
		it('needs an operation or a filter', () => {
			assert.throws(() => breakpoints.add({}), /needs an operation or a filter/);
			assert.throws(() => breakpoints.add({ filter: '   ' }), /needs an operation or a filter/);
			assert.equal(breakpoints.armed, false);
		});

		it('numbers them, describes them, clamps the hold between 1 s and 10 minutes', () => {
			const a = breakpoints.add({ operation: 'GetAdvertPaged' });
			const b = breakpoints.add({ filter: 'client:10.0.0.5', holdMs: 5 });
			const c = breakpoints.add({ operation: 'AddAdvert', filter: 'upstream:live', holdMs: 24 * 3600_000 });
			assert.deepEqual(
				[a, b, c].map(({ id, description, holdMs }) => [id, description, holdMs]),
				[
					[1, 'operation GetAdvertPaged', DEFAULT_HOLD_MS],
					[2, 'filter "client:10.0.0.5"', 1_000],
					[3, 'operation AddAdvert and filter "upstream:live"', 600_000],
				],
			);
			assert.equal(breakpoints.armed, true);
			assert.deepEqual(breakpoints.list(), [a, b, c]);
		});

		it('removes one by id; false for one not set', () => {
			const a = breakpoints.add({ operation: 'GetAdvertPaged' });
			assert.equal(breakpoints.remove(a.id + 1), false);
			assert.equal(breakpoints.remove(a.id), true);
			assert.equal(breakpoints.remove(a.id), false);
			assert.equal(breakpoints.armed, false);
		});

		it('fifty at most', () => {
			for (let i = 0; i < 50; i++) breakpoints.add({ filter: `text${i}` });
			assert.throws(() => breakpoints.add({ operation: 'GetCurrency' }), /At most 50 breakpoints/);
		});
	});

	describe('which requests they hold', () => {
		it('an operation, in any case; the first breakpoint met', () => {
			const first = breakpoints.add({ operation: 'getadvertpaged' });
			breakpoints.add({ filter: 'sAdvertID' });
			assert.equal(breakpoints.match(candidate()), first);
			assert.equal(breakpoints.match(candidate({ operation: 'GetCurrency', body: '' })), undefined);
			assert.equal(breakpoints.match(candidate({ operation: undefined, body: '' })), undefined);
		});

		it('a Traffic-view filter: text in the path, query, operation or body, client, upstream', () => {
			const text = breakpoints.add({ filter: 'ADVERTID>42' });
			assert.equal(breakpoints.match(candidate()), text);
			assert.equal(breakpoints.match(candidate({ body: '<sAdvertID>43</sAdvertID>' })), undefined);
			breakpoints.clear();

			const byQuery = breakpoints.add({ filter: 'CurrentPage=3' });
			assert.equal(breakpoints.match(candidate({ query: 'CurrentPage=3&RowsPerPage=5' })), byQuery);
			breakpoints.clear();

			const byClient = breakpoints.add({ filter: 'client:10.0.0' });
			assert.equal(breakpoints.match(candidate({ client: '10.0.0.5' })), byClient);
			assert.equal(breakpoints.match(candidate()), undefined);
			breakpoints.clear();

			const live = breakpoints.add({ filter: 'upstream:LIVE.example' });
			assert.equal(breakpoints.match(candidate({ upstream: 'https://live.example.com' })), live);
			assert.equal(breakpoints.match(candidate()), undefined);
			breakpoints.clear();

			const sandbox = breakpoints.add({ filter: 'upstream:sandbox' });
			assert.equal(breakpoints.match(candidate()), sandbox);
			assert.equal(breakpoints.match(candidate({ upstream: 'https://live.example.com' })), undefined);
		});

		it('an operation and a filter must both hold', () => {
			const both = breakpoints.add({ operation: 'GetAdvertPaged', filter: 'client:10.0.0.5' });
			assert.equal(breakpoints.match(candidate({ client: '10.0.0.5' })), both);
			assert.equal(breakpoints.match(candidate()), undefined);
			assert.equal(breakpoints.match(candidate({ client: '10.0.0.5', operation: 'GetCurrency' })), undefined);
		});
	});

	describe('holding', () => {
		it('holds the request as given until it is sent on as edited', async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged', holdMs: 30_000 });
			const before = breakpoints.version;
			const decided = breakpoints.hold(breakpoint, request());
			assert.ok(breakpoints.version > before);
			const [held] = breakpoints.held();
			assert.equal(held.breakpoint, breakpoint.id);
			assert.equal(held.body, request().body);
			assert.equal(held.operation, 'GetAdvertPaged');
			assert.equal(Date.parse(held.releaseAt) - Date.parse(held.time), 30_000);
			assert.equal(breakpoints.get(held.id), held);
			const edit = { action: 'send' as const, query: 'x=1', body: '<edited>{{connection.apiKey}}</edited>' };
			assert.equal(breakpoints.decide(held.id, edit), true);
			assert.deepEqual(await decided, edit);
			assert.deepEqual(breakpoints.held(), []);
			assert.equal(breakpoints.get(held.id), undefined);
			assert.equal(breakpoints.decide(held.id, { action: 'release' }), false);
		});

		it('answers with a chosen fault', async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged' });
			const decided = breakpoints.hold(breakpoint, request());
			const fault = { code: 'Server' as const, subcode: 'Timeout', message: 'Held and failed on purpose.' };
			breakpoints.decide(breakpoints.held()[0].id, { action: 'fault', fault });
			assert.deepEqual(await decided, { action: 'fault', fault });
		});

		it('releases unchanged, saying so, when nobody decides in time', async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged', holdMs: 1_000 });
			const decided = await breakpoints.hold(breakpoint, request());
			assert.deepEqual(decided, { action: 'release', timedOut: true });
			assert.deepEqual(breakpoints.held(), []);
		});

		it('releases unchanged when the request is given up (its signal aborts)', async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged' });
			const controller = new AbortController();
			const decided = breakpoints.hold(breakpoint, request(), controller.signal);
			assert.equal(breakpoints.held().length, 1);
			controller.abort();
			assert.deepEqual(await decided, { action: 'release' });
			assert.deepEqual(breakpoints.held(), []);
		});

		it('clear releases every held request unchanged and removes every breakpoint', async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged' });
			const decisions = [
				breakpoints.hold(breakpoint, request()),
				breakpoints.hold(breakpoint, request({ query: 'b' })),
			];
			assert.deepEqual(
				breakpoints.held().map((held) => held.id),
				[1, 2],
			);
			breakpoints.clear();
			assert.deepEqual(await Promise.all(decisions), [{ action: 'release' }, { action: 'release' }]);
			assert.equal(breakpoints.armed, false);
			assert.deepEqual(breakpoints.held(), []);
		});

		it(`holds ${MAX_HELD} requests at once at most`, async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged' });
			const decisions = Array.from({ length: MAX_HELD }, () => breakpoints.hold(breakpoint, request()));
			assert.equal(breakpoints.room, false);
			breakpoints.decide(breakpoints.held()[0].id, { action: 'release' });
			assert.equal(breakpoints.room, true);
			breakpoints.clear();
			await Promise.all(decisions);
		});
	});

	describe('waiting for a change', () => {
		it('resolves at once when the held requests changed since the version given', async () => {
			const version = breakpoints.version;
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged' });
			const decided = breakpoints.hold(breakpoint, request());
			await breakpoints.waitForChange(version, 600_000);
			breakpoints.clear();
			await decided;
		});

		it('resolves when a request is held or decided after it began waiting', async () => {
			const breakpoint = breakpoints.add({ operation: 'GetAdvertPaged' });
			const waited = breakpoints.waitForChange(breakpoints.version, 600_000);
			const decided = breakpoints.hold(breakpoint, request());
			await waited;
			const again = breakpoints.waitForChange(breakpoints.version, 600_000);
			breakpoints.decide(breakpoints.held()[0].id, { action: 'release' });
			await again;
			assert.deepEqual(await decided, { action: 'release' });
		});

		it('resolves when its signal aborts, or after the time given', async () => {
			const controller = new AbortController();
			const waited = breakpoints.waitForChange(breakpoints.version, 600_000, controller.signal);
			controller.abort();
			await waited;
			await breakpoints.waitForChange(breakpoints.version, 600_000, controller.signal);
			await breakpoints.waitForChange(breakpoints.version, 10);
		});
	});
});
