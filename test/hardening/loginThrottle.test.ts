/**
 * Failed logins cost a scrypt hash (about 35 ms of blocking CPU at the seeded cost). Eight clients
 * sending wrong passwords for one username as fast as they can get that username throttled: only a
 * handful of attempts are hashed, the rest are refused at once, and health checks keep being answered.
 * Counts are asserted; times are printed only.
 */
import * as assert from 'node:assert/strict';
import type { RunningEmulator } from '../../src/emulator';
import { DEFAULT_ENDPOINT_PATHS } from '../../src/protocol/catalogue';
import { delay, rawRequest, SANDBOX_START_TIMEOUT_MS, startSandbox } from '../integration/support';
import { asmxQuery } from '../emulator/web/helpers';

const CLIENTS = 8;
const ATTACK_MS = 6_000;

describe('hardening: failed-login throttling', function () {
	this.timeout(SANDBOX_START_TIMEOUT_MS + 60_000);
	let emulator: RunningEmulator;
	before(async function () {
		this.timeout(SANDBOX_START_TIMEOUT_MS);
		// The seeded password cost (scrypt N = 16384), as users run it.
		emulator = await startSandbox({ size: 'small' });
	});
	after(() => emulator?.stop());

	const userList = (username: string, password: string) =>
		rawRequest(
			`${emulator.postingUrl.replace(DEFAULT_ENDPOINT_PATHS.posting, DEFAULT_ENDPOINT_PATHS.administration)}/UserList?${asmxQuery(
				'UserList',
				{
					sAPIKey: emulator.demo.apiKey,
					sUsername: username,
					sPassword: password,
				},
			)}`,
			{ method: 'GET', deadlineMs: 15_000 },
		);

	it('hashes only a handful of wrong passwords for a username under attack and keeps answering others', async () => {
		const outcomes = { hashed: 0, throttled: 0, other: 0 };
		const stopAt = Date.now() + ATTACK_MS;
		const attacker = async (): Promise<void> => {
			while (Date.now() < stopAt) {
				const answer = await userList('south.admin', 'not-the-password');
				if (/Check the login of your connection/.test(answer.body)) outcomes.hashed++;
				else if (/Too many failed logins for this username/.test(answer.body)) outcomes.throttled++;
				else outcomes.other++;
			}
		};
		const health: number[] = [];
		const healthChecks = async (): Promise<void> => {
			while (Date.now() < stopAt) {
				const started = performance.now();
				const answer = await rawRequest(
					`${emulator.postingUrl}/GetCurrency?${asmxQuery('GetCurrency', { sAPIKey: emulator.demo.apiKey })}`,
					{ method: 'GET', deadlineMs: 15_000 },
				);
				assert.equal(answer.status, 200, answer.body);
				health.push(performance.now() - started);
				await delay(50);
			}
		};
		await Promise.all([...Array.from({ length: CLIENTS }, attacker), healthChecks()]);
		const sorted = [...health].sort((a, b) => a - b);
		console.log(
			`      ${CLIENTS} clients for ${ATTACK_MS / 1000} s: ${outcomes.hashed} wrong passwords hashed, ${outcomes.throttled} refused at once; ` +
				`${health.length} health checks, p50 ${sorted[sorted.length >> 1]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms`,
		);
		assert.equal(outcomes.other, 0);
		// Three free failures, then waits of 1, 2 and 4 s: at most a few more hashes in ATTACK_MS.
		assert.ok(outcomes.hashed <= 3 + CLIENTS + 3, `${outcomes.hashed} wrong passwords were hashed`);
		assert.ok(outcomes.throttled > outcomes.hashed, 'most attempts were refused without hashing');
		assert.ok(health.length > 0);

		// Another user's login is untouched by the attack on south.admin.
		const other = await userList(emulator.demo.username, emulator.demo.password);
		assert.equal(other.status, 200, other.body);
	});
});
