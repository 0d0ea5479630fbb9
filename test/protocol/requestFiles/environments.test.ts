import * as assert from 'node:assert/strict';
import { findEnvironment, parseEnvironmentFile } from '../../../src/protocol/requestFiles/environments';

describe('environments of request files (multiposting.env.json)', () => {
	it('reads named environments with connection settings and variables', () => {
		const everySetting = {
			url: 'https://staging.example.com',
			namespace: 'https://staging.example.com/',
			postingPath: '/SOAP/Posting.asmx',
			administrationPath: '/SOAP/Administration.asmx',
			username: 'ci',
			culture: 'fr-FR',
		};
		const parsed = parseEnvironmentFile(
			JSON.stringify({
				$schema: './schema.json',
				sandbox: { variables: { jobTitle: 'Staff Nurse', rows: 10, live: true } },
				staging: {
					connection: everySetting,
				},
			}),
		);
		assert.deepEqual(parsed, {
			problems: [],
			environments: [
				{ name: 'sandbox', connection: {}, variables: { jobTitle: 'Staff Nurse', rows: '10', live: 'true' } },
				{
					name: 'staging',
					connection: everySetting,
					variables: {},
				},
			],
		});
	});

	it('refuses secrets by name, wherever they are written', () => {
		const parsed = parseEnvironmentFile(
			JSON.stringify({
				staging: {
					connection: { url: 'https://x.example', apiKey: 'k', password: 'p' },
					variables: { sAPIKey: 'k', clientSecret: 's', authToken: 't', jobTitle: 'Nurse' },
				},
			}),
		);
		assert.ok('problems' in parsed && parsed.problems.length === 5, JSON.stringify(parsed));
		for (const path of [
			'staging.connection.apiKey',
			'staging.connection.password',
			'staging.variables.sAPIKey',
			'staging.variables.clientSecret',
			'staging.variables.authToken',
		]) {
			assert.ok(
				parsed.problems.some((problem) =>
					problem.startsWith(`${path}: secrets are never read from the environment file`),
				),
				`${path} refused: ${parsed.problems.join(' | ')}`,
			);
		}
		assert.match(parsed.problems[0], /MP_API_KEY and MP_PASSWORD .* Set Environment Secrets/);
	});

	it('refuses a value that is a secret of the run, in any encoding, and a URL with credentials', () => {
		const secret = 'k&y <1>';
		for (const written of [secret, encodeURIComponent(secret), 'k&amp;y &lt;1&gt;', `prefix-${secret}`]) {
			const parsed = parseEnvironmentFile(JSON.stringify({ ci: { variables: { filter: written } } }), [
				secret,
				'',
			]);
			assert.deepEqual(
				parsed.problems.map((problem) => problem.slice(0, problem.indexOf(';'))),
				['ci.variables.filter: this value is a secret of the run (the API key or password)'],
				written,
			);
		}
		const url = parseEnvironmentFile(JSON.stringify({ ci: { connection: { url: 'https://me:pw@x.example' } } }));
		assert.match(url.problems[0], /^ci\.connection\.url: must not carry credentials/);
	});

	it('says what is wrong with a malformed file', () => {
		assert.match(parseEnvironmentFile('{ "a": ').problems[0], /^it is not JSON/);
		assert.match(parseEnvironmentFile('[]').problems[0], /^it must be an object of environments/);
		assert.deepEqual(
			parseEnvironmentFile(
				JSON.stringify({
					'bad name': {},
					ci: {
						connection: { url: 'ftp://x', postingPath: 'SOAP', port: 1 },
						variables: { '1x': 'a', list: [1] },
						headers: {},
					},
				}),
			).problems,
			[
				'"bad name": an environment\'s name is letters, digits, "_", "-" and ".".',
				'ci.connection.url: must be an http or https URL.',
				'ci.connection.postingPath: must start with /.',
				'ci.connection.port: unknown setting; an environment sets url, namespace, postingPath, administrationPath, username, culture.',
				'ci.variables.1x: a variable\'s name is letters, digits and "_", not starting with a digit.',
				'ci.variables.list: a value is a string, a number or true/false.',
				'ci.headers: unknown key; an environment has "connection" and "variables".',
			],
		);
	});

	it('finds an environment by name, or names the ones there are', () => {
		const parsed = parseEnvironmentFile('{"sandbox": {}, "staging": {}}');
		assert.ok('environments' in parsed);
		assert.equal((findEnvironment(parsed.environments, 'staging', 'env.json') as { name: string }).name, 'staging');
		assert.equal(
			findEnvironment(parsed.environments, 'prod', 'env.json'),
			'env.json has no environment "prod"; it has sandbox, staging.',
		);
	});
});
