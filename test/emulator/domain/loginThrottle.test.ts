import * as assert from 'node:assert/strict';
import type { RequestContext } from '../../../src/emulator/domain/context';
import { attemptLogin, authenticateKey } from '../../../src/emulator/domain/access';
import { LoginThrottle } from '../../../src/emulator/domain/loginThrottle';
import { readParams } from '../../../src/emulator/domain/paramReader';
import { openSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type { AnyParams } from '../../../src/protocol/catalogue';
import { FaultError } from '../../../src/protocol/faults';

const ctx: RequestContext = { endpoint: 'posting', binding: 'soap11', baseUrl: 'http://127.0.0.1:1', now: new Date() };

describe('failed-login throttle', () => {
	describe('the throttle itself', () => {
		it('lets three failures in a row pass, then waits 1 s, doubling up to 30 s', () => {
			const throttle = new LoginThrottle();
			const t0 = 1_000_000;
			for (let i = 0; i < 3; i++) {
				assert.equal(throttle.retryAfterMs('u', t0), 0);
				throttle.failed('u', t0);
			}
			assert.equal(throttle.retryAfterMs('u', t0), 1_000);
			const waits: number[] = [];
			let now = t0;
			for (let i = 0; i < 8; i++) {
				now += throttle.retryAfterMs('u', now);
				throttle.failed('u', now);
				waits.push(throttle.retryAfterMs('u', now));
			}
			assert.deepEqual(waits, [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
			assert.equal(throttle.retryAfterMs('other', now), 0, 'per username');
			throttle.succeeded('u');
			assert.equal(throttle.retryAfterMs('u', now), 0, 'a success clears the failures');
		});

		it('forgets a quiet username and bounds how many it tracks', () => {
			const throttle = new LoginThrottle({ maxTracked: 100 });
			for (let i = 0; i < 4; i++) throttle.failed('quiet', 0);
			assert.ok(throttle.retryAfterMs('quiet', 0) > 0);
			assert.equal(throttle.retryAfterMs('quiet', 16 * 60_000), 0, 'forgotten after 15 minutes');
			for (let i = 0; i < 4; i++) throttle.failed('first', 0);
			for (let n = 0; n < 150; n++) throttle.failed(`spray-${n}`, 1);
			assert.equal(throttle.retryAfterMs('first', 1), 0, 'the oldest entries make room');
		});

		it('reports each change of what it holds, and only changes', () => {
			let changes = 0;
			const throttle = new LoginThrottle({ onChange: () => changes++ });
			throttle.succeeded('u');
			assert.equal(changes, 0, 'nothing to clear');
			throttle.failed('u', 0);
			throttle.failed('u', 0);
			assert.equal(changes, 2);
			throttle.succeeded('u');
			assert.equal(changes, 3, 'failures cleared');
			throttle.failed('quiet', 0);
			assert.equal(throttle.retryAfterMs('quiet', 16 * 60_000), 0);
			assert.equal(changes, 5, 'a quiet username forgotten');
		});
	});

	describe('logins of the sandbox', function () {
		this.timeout(60_000);
		let sandbox: Sandbox;
		before(() => {
			sandbox = openSandbox({
				dataDir: ':memory:',
				// A seed of its own: its password hash (seeded salt) is one no earlier test verified, and a
				// verified password skips the throttle by design.
				seed: 0x7e57,
				passwordCost: 1024,
				demoSize: { adverts: 10, applications: 20 },
				// The clock of these tests stands still: the hashing budget (tested below) must not run dry.
				hashingBudget: { perClientBurst: 1000, overallBurst: 1000 },
			});
		});
		after(() => sandbox?.close());

		const userList = (sUsername: string, sPassword: string): string => {
			const params: AnyParams = { sAPIKey: sandbox.demo.apiKey, sUsername, sPassword };
			try {
				sandbox.handlers.UserList(params, ctx);
				return 'ok';
			} catch (error) {
				assert.ok(error instanceof FaultError, String(error));
				assert.equal(error.fault.subcode, 'AuthenticationFailed');
				return error.fault.message;
			}
		};

		it('refuses further attempts at once after three failures, for known and unknown usernames alike', () => {
			const known = ['south.admin', 'manchester.recruiter'];
			const unknown = ['nobody.here', 'ghost.user'];
			const transcript = (username: string, password: string) =>
				[1, 2, 3, 4, 5].map(() => userList(username, 'wrong-password')).concat(userList(username, password));
			const password = sandbox.demo.password;
			const seen = [...known, ...unknown].map((u) => transcript(u, password));
			for (const lines of seen) {
				assert.deepEqual(lines.slice(0, 3), Array(3).fill(lines[0]));
				assert.match(lines[0], /^sUsername or sPassword is not valid\. Check the login/);
				assert.match(lines[3], /Too many failed logins for this username: try again in 1 s\.$/);
				assert.match(lines[4], /try again in \d+ s\.$/);
				// While throttled even the right password is not checked: the check costs a hash.
				assert.match(lines[5], /Too many failed logins/);
			}
			// Known and unknown usernames cannot be told apart by their answers.
			assert.deepEqual(seen[0], seen[2]);
			assert.deepEqual(seen[1], seen[3]);
		});

		it('counts failures per account: no other spelling of a throttled username gets a check, not even with the right password', () => {
			for (let i = 0; i < 3; i++) userList('leeds.recruiter', 'wrong-password');
			for (const spelling of ['Leeds.recruiter', 'LEEDS.RECRUITER', 'leeds.Recruiter']) {
				assert.match(
					userList(spelling, 'wrong-password'),
					/Too many failed logins for this username/,
					spelling,
				);
			}
			assert.match(userList('lEEDS.rECRUITER', sandbox.demo.password), /Too many failed logins/);
			// Unknown usernames alike: their answers cannot tell which usernames exist.
			for (let i = 0; i < 3; i++) userList('ghost.writer', 'wrong-password');
			assert.match(userList('Ghost.Writer', 'wrong-password'), /Too many failed logins for this username/);
		});

		it('never slows a password verified before, even while its username is throttled', () => {
			const { username, password } = sandbox.demo;
			assert.equal(userList(username, password), 'ok');
			for (let i = 0; i < 6; i++) userList(username, 'wrong-password');
			assert.match(userList(username, 'wrong-password'), /Too many failed logins/);
			assert.equal(userList(username, password), 'ok', 'the verified password gets in at once');
			assert.match(
				userList(username, 'wrong-password'),
				/^sUsername or sPassword is not valid\. Check/,
				'and clears the failures',
			);
		});

		it('answers a throttled GetLoginURL as a failed login, not a fault', () => {
			const params = (sPassword: string): AnyParams => ({
				sAPIKey: sandbox.demo.apiKey,
				sUsername: 'north.admin',
				sPassword,
			});
			for (let i = 0; i < 3; i++) {
				assert.equal(
					(sandbox.handlers.GetLoginURL(params('wrong'), ctx) as { LoginMessage: string }).LoginMessage,
					'The username or password is not valid.',
				);
			}
			const throttled = sandbox.handlers.GetLoginURL(params('wrong'), ctx) as {
				LoginSuccess: boolean;
				LoginMessage: string;
			};
			assert.equal(throttled.LoginSuccess, false);
			assert.match(throttled.LoginMessage, /^Too many failed logins for this username: try again in 1 s\.$/);
		});
	});
	describe('the password-hashing budget', function () {
		this.timeout(60_000);
		let sandbox: Sandbox;
		before(() => {
			sandbox = openSandbox({
				dataDir: ':memory:',
				seed: 0xb0d9e7,
				passwordCost: 1024,
				demoSize: { adverts: 10, applications: 20 },
			});
		});
		after(() => sandbox?.close());

		/** A login of a new username each time: the failed-login throttle never applies. */
		const attempt = (client: string, at: number, username: string): string => {
			const key = authenticateKey(sandbox.store, readParams({ sAPIKey: sandbox.demo.apiKey }));
			const params = readParams({ sUsername: username, sPassword: 'wrong-password' });
			return attemptLogin(sandbox.store, key, params, { now: new Date(at), client }).throttled ?? 'checked';
		};

		it('hashes at most a burst per client and per sandbox, then as fast as the buckets refill', () => {
			const start = Date.parse('2026-03-01T12:00:00Z');
			const outcomes = (client: string, at: number, count: number, prefix: string): string[] =>
				Array.from({ length: count }, (_, i) => attempt(client, at, `${prefix}.${i}`));
			// One client with many usernames: 8 checked (the client's burst), the rest refused at once.
			const first = outcomes('192.0.2.1', start, 12, 'spray.one');
			assert.deepEqual(first.slice(0, 8), Array(8).fill('checked'));
			for (const refused of first.slice(8)) {
				assert.equal(refused, 'Too many logins are being checked at once: try again in 1 s.');
			}
			// A second client gets its own burst, until the sandbox's 16 are spent.
			const second = outcomes('192.0.2.2', start, 12, 'spray.two');
			assert.equal(second.filter((outcome) => outcome === 'checked').length, 8);
			assert.deepEqual(outcomes('192.0.2.3', start, 3, 'spray.three'), Array(3).fill(second.at(-1)));
			// Half a second later the sandbox has 4 hashes more (8 a second), the first client 2 (4 a second).
			const later = outcomes('192.0.2.1', start + 500, 4, 'spray.four');
			assert.deepEqual(later.slice(0, 2), ['checked', 'checked']);
			assert.match(later[2], /Too many logins are being checked at once/);
			assert.deepEqual(outcomes('192.0.2.3', start + 500, 3, 'spray.five').slice(0, 2), ['checked', 'checked']);
		});
	});
});
