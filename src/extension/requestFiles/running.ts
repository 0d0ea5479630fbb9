/**
 * Running request files from the editor over the active connection: the run options (target,
 * connection values, secrets) and the texts shown for a run. Free of the VS Code API.
 */
import { formatExchange, type RequestRunResult, type RunOptions } from '../../client/requestFileRunner';
import { wsdlSchemaValidator } from '../../client/requestFileSchema';
import { loadLibxml2Validator } from '../../client/xsd/libxml2Validator';
import { dirname } from 'node:path';
import { DEFAULT_ENDPOINT_PATHS, defaultNamespace } from '../../protocol/catalogue';
import type { RequestEnvironment } from '../../protocol/requestFiles/environments';
import type { ConnectionValues } from '../../protocol/requestFiles/placeholders';
import type { RequestTarget } from '../../protocol/requestFiles/prepare';
import type { WorkbenchServices } from '../services';
import type { EnvironmentSecrets } from './environmentChoice';
import { secretValues, secretsToHide, targetOfClient } from '../playground/connection';

/** The environment of a run and, when it names a URL, its secrets from SecretStorage. */
export interface EnvironmentRun {
	environment: RequestEnvironment;
	secrets?: EnvironmentSecrets;
}

/**
 * The options of a run: over the active connection (starts the sandbox when that is the
 * connection), or over the URL of the chosen environment with its own secrets; the environment's
 * variables, username and culture apply either way.
 */
export async function runOptionsFor(
	services: WorkbenchServices,
	timeoutMs: number,
	chosen?: EnvironmentRun,
): Promise<RunOptions> {
	const settings = chosen?.environment.connection ?? {};
	let target: RequestTarget;
	let connection: ConnectionValues;
	let secrets: string[];
	if (settings.url) {
		target = {
			baseUrl: settings.url,
			namespace: settings.namespace ?? defaultNamespace(settings.url),
			paths: {
				posting: settings.postingPath ?? DEFAULT_ENDPOINT_PATHS.posting,
				administration: settings.administrationPath ?? DEFAULT_ENDPOINT_PATHS.administration,
			},
		};
		connection = { apiKey: chosen?.secrets?.apiKey ?? '', password: chosen?.secrets?.password ?? '' };
		secrets = [
			...(await services.secretsForRedaction()),
			connection.apiKey ?? '',
			connection.password ?? '',
		].filter((secret) => secret.length > 0);
	} else {
		target = targetOfClient(await services.activeClient());
		connection = await secretValues(services);
		secrets = await secretsToHide(services, connection);
	}
	connection = {
		...connection,
		username: settings.username ?? connection.username ?? '',
		culture: settings.culture ?? connection.culture ?? 'en-GB',
	};
	return {
		target,
		connection,
		secrets,
		timeoutMs,
		variables: chosen?.environment.variables,
		validateSchema: wsdlSchemaValidator(target, loadLibxml2Validator, timeoutMs),
	};
}

/** The folder a file's `scenario: x.json` lines are read from: its own, for a file on disk. */
export function folderOf(uri: { scheme: string; fsPath: string }): string | undefined {
	return uri.scheme === 'file' ? dirname(uri.fsPath) : undefined;
}

/** One line for a notification: `GetCurrency (soap12): HTTP 200 · 2 of 2 expectations passed`. */
export function runHeadline(result: RequestRunResult, operation?: string, binding?: string): string {
	const name = operation ? `${operation} (${binding ?? 'soap11'})` : result.label;
	const response = result.exchange?.response;
	const head = response ? `HTTP ${response.status}` : (result.problems[0] ?? result.exchange?.error ?? result.status);
	const fault =
		result.decoded && 'fault' in result.decoded
			? ` · fault ${result.decoded.fault.subcode ?? result.decoded.fault.code}`
			: '';
	const total = result.outcomes.length;
	const passed = result.outcomes.filter((outcome) => outcome.passed).length;
	const checks = total > 0 ? ` · ${passed} of ${total} expectations passed` : '';
	return `${name}: ${head}${fault}${checks}`;
}

/** Where a request and its expectations are in its file (1-based lines). */
export interface EntryLines {
	first: number;
	expectationLines: readonly number[];
}

const ORDER: Record<RequestRunResult['status'], number> = { failed: 0, errored: 0, skipped: 1, passed: 2 };

/**
 * A run as readable text, the same in the output channel and the Test Results: a summary line, the
 * requests that did not pass first (each failed expectation at its line with the expected and actual
 * values, the problems, what came back in one line), then the others, and the exchanges below all of it.
 */
export function describeRun(
	fileName: string,
	results: readonly RequestRunResult[],
	linesOf: (index: number) => EntryLines | undefined = () => undefined,
): string {
	const count = (status: RequestRunResult['status']): number =>
		results.filter((result) => result.status === status).length;
	const tally = (['passed', 'failed', 'errored', 'skipped'] as const)
		.filter((status) => count(status) > 0)
		.map((status) => `${count(status)} ${status}`);
	const lines = [`${fileName}: ${tally.join(', ') || 'nothing ran'}`];
	const ordered = [...results].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.index - b.index);
	for (const result of ordered) {
		const where = linesOf(result.index);
		const notes = [where ? `line ${where.first}` : '', result.setup ? 'needed by the selected request' : '']
			.filter(Boolean)
			.join(', ');
		lines.push('', `${result.status.toUpperCase()} ${result.label}${notes ? ` (${notes})` : ''}`);
		result.outcomes.forEach((outcome, index) => {
			if (outcome.passed) return;
			const line = where?.expectationLines[index];
			lines.push(
				`  ✗ expect: ${outcome.text}${line ? ` (line ${line})` : ''}`,
				`      expected: ${outcome.expected}`,
				`      actual:   ${outcome.actual}`,
			);
		});
		for (const problem of result.problems) lines.push(`  ${problem}`);
		const passed = result.outcomes.filter((outcome) => outcome.passed);
		if (passed.length > 0) lines.push(`  ✓ ${passed.map((outcome) => outcome.text).join(' · ')}`);
		for (const [name, value] of Object.entries(result.captured)) lines.push(`  captured ${name} = ${value}`);
		const response = responseSummary(result);
		if (response) lines.push(`  response: ${response}`);
	}
	const exchanges = ordered.filter((result) => result.exchange);
	if (exchanges.length > 0) {
		lines.push('', '── Exchanges ──');
		for (const result of exchanges) lines.push('', `### ${result.label}`, formatExchange(result.exchange!, 4000));
		// Output views scroll to their end: the outcome is repeated there, under the bodies.
		lines.push('', `── ${lines[0]} ──`);
		for (const result of ordered.filter((result) => result.status !== 'passed')) {
			const failedAt = result.outcomes.findIndex((outcome) => !outcome.passed);
			const first = failedAt >= 0 ? result.outcomes[failedAt] : undefined;
			const line = linesOf(result.index)?.expectationLines[failedAt];
			const why = first
				? `expect: ${first.text}${line ? ` (line ${line})` : ''}: expected ${first.expected}, actual ${first.actual}`
				: (result.problems[0] ?? '');
			lines.push(`${result.status.toUpperCase()} ${result.label}${why ? `: ${why}` : ''}`);
		}
	}
	return `${lines.join('\n')}\n`;
}

/** What came back, in one line: `HTTP 500 · fault Client/MissingFilter: …`, `HTTP 200 · 3 rows`. */
export function responseSummary(result: RequestRunResult): string | undefined {
	const exchange = result.exchange;
	if (!exchange) return undefined;
	if (!exchange.response) return `no response: ${exchange.error ?? 'unknown error'}`;
	const parts = [`HTTP ${exchange.response.status}`];
	if (result.decoded && 'fault' in result.decoded) {
		const fault = result.decoded.fault;
		parts.push(`fault ${[fault.code, fault.subcode].filter(Boolean).join('/')}: ${shorten(fault.message, 200)}`);
	} else if (result.decoded) {
		const value = result.decoded.result;
		parts.push(Array.isArray(value) ? `${value.length} row${value.length === 1 ? '' : 's'}` : 'a result');
	} else if (result.decodeError) {
		parts.push(`not decodable: ${shorten(result.decodeError, 200)}`);
	}
	parts.push(`${Math.round(exchange.timeMs)} ms`);
	return parts.join(' · ');
}

function shorten(text: string, max: number): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
