import * as assert from 'node:assert/strict';
import {
	askEnvironmentSecrets,
	chooseEnvironment,
	environmentNames,
	environmentSecretKey,
	nearestEnvironmentFile,
	storedEnvironmentSecrets,
	type KnownEnvironmentFile,
} from '../../../src/extension/requestFiles/environmentChoice';
import { runOptionsFor } from '../../../src/extension/requestFiles/running';
import { FakeUi, MemorySecrets } from '../fakes';
import { createTestWorkbench, type TestWorkbench } from '../harness';

const ROOT: KnownEnvironmentFile = {
	folder: '/ws',
	shownPath: 'multiposting.env.json',
	text: JSON.stringify({
		sandbox: { variables: { jobTitle: 'Nurse' }, connection: { username: 'someone' } },
		staging: {
			connection: { url: 'https://staging.example', culture: 'fr-FR' },
			variables: { jobTitle: 'Staging nurse' },
		},
	}),
};
const NESTED: KnownEnvironmentFile = {
	folder: '/ws/suite',
	shownPath: 'suite/multiposting.env.json',
	text: JSON.stringify({ sandbox: { variables: { jobTitle: 'Suite nurse' } } }),
};

describe('environments of request files in the editor', () => {
	it('uses the nearest environment file up from a request file', () => {
		const files = [ROOT, NESTED];
		assert.equal(nearestEnvironmentFile(files, '/ws/suite/deep'), NESTED);
		assert.equal(nearestEnvironmentFile(files, '/ws/suite'), NESTED);
		assert.equal(nearestEnvironmentFile(files, '/ws/suitcase'), ROOT);
		assert.equal(nearestEnvironmentFile(files, '/elsewhere'), undefined);
	});

	it('chooses the environment by name, and says why it cannot', () => {
		assert.equal(chooseEnvironment([ROOT], '/ws', undefined, []), undefined, 'none chosen');
		assert.equal(chooseEnvironment([ROOT], '/other', 'sandbox', []), undefined, 'no file applies');
		const chosen = chooseEnvironment([ROOT, NESTED], '/ws/suite', 'sandbox', []);
		assert.deepEqual(chosen, {
			shownPath: 'suite/multiposting.env.json',
			environment: { name: 'sandbox', connection: {}, variables: { jobTitle: 'Suite nurse' } },
		});
		assert.equal(
			chooseEnvironment([ROOT, NESTED], '/ws/suite', 'staging', []),
			'suite/multiposting.env.json has no environment "staging"; it has sandbox.',
		);
		assert.match(
			chooseEnvironment([ROOT], '/ws', 'staging', ['Nurse']) as string,
			/^multiposting\.env\.json: sandbox\.variables\.jobTitle: this value is a secret of the run/,
		);
		assert.deepEqual([...environmentNames([ROOT, NESTED]).keys()], ['sandbox', 'staging']);
	});

	it('asks for the secrets of an environment once and keeps them in SecretStorage only', async () => {
		const staging = { name: 'staging', connection: { url: 'https://staging.example' }, variables: {} };
		const secrets = new MemorySecrets();
		assert.equal(await storedEnvironmentSecrets(staging, secrets), undefined);
		const ui = new FakeUi().script({ input: ' key-1 ' }, { input: 'pw' });
		assert.deepEqual(await askEnvironmentSecrets(staging, secrets, ui), { apiKey: 'key-1', password: 'pw' });
		assert.equal(ui.calls.filter((call) => call.kind === 'input').length, 2);
		assert.ok(ui.calls.every((call) => call.kind !== 'input' || (call.options as { password?: boolean }).password));
		assert.deepEqual(await storedEnvironmentSecrets(staging, secrets), { apiKey: 'key-1', password: 'pw' });
		assert.equal(
			secrets.values.get(environmentSecretKey(staging, 'apiKey')),
			'key-1',
			'kept under multiposting.environment.staging@https://staging.example.apiKey',
		);
		const cancelled = new FakeUi().script({ input: undefined });
		assert.equal(
			await askEnvironmentSecrets({ ...staging, name: 'other' }, new MemorySecrets(), cancelled),
			undefined,
		);
	});

	describe('run options', function () {
		this.timeout(30_000);
		let wb: TestWorkbench;
		beforeEach(() => {
			wb = createTestWorkbench();
		});
		afterEach(() => wb.dispose());

		it('go to the URL of an environment with its own secrets, without starting the sandbox', async () => {
			const options = await runOptionsFor(wb.services, 5000, {
				environment: {
					name: 'staging',
					connection: { url: 'https://staging.example', culture: 'fr-FR', postingPath: '/p.asmx' },
					variables: { jobTitle: 'Nurse' },
				},
				secrets: { apiKey: 'k', password: 'p' },
			});
			assert.deepEqual(options.target, {
				baseUrl: 'https://staging.example',
				namespace: 'https://staging.example/',
				paths: { posting: '/p.asmx', administration: '/SOAP/Administration.asmx' },
			});
			assert.deepEqual(options.connection, { apiKey: 'k', password: 'p', username: '', culture: 'fr-FR' });
			assert.deepEqual(options.variables, { jobTitle: 'Nurse' });
			assert.ok(options.secrets?.includes('k') && options.secrets.includes('p'));
			assert.equal(wb.starts(), 0);
		});

		it('go over the active connection for an environment without a URL, with its variables and username', async () => {
			const options = await runOptionsFor(wb.services, 5000, {
				environment: { name: 'sandbox', connection: { username: 'someone' }, variables: { jobTitle: 'Nurse' } },
			});
			assert.equal(wb.starts(), 1);
			assert.match(options.target.baseUrl, /^http:\/\/127\.0\.0\.1:\d+/);
			assert.equal(options.connection.username, 'someone');
			assert.ok(options.connection.apiKey, 'the sandbox connection has an API key');
			assert.deepEqual(options.variables, { jobTitle: 'Nurse' });
		});
	});
});
