/**
 * Running request files from the editor over the active connection: the run options (target,
 * connection values, secrets) and the texts shown for a run. Free of the VS Code API.
 */
import { formatExchange, type RequestRunResult, type RunOptions } from '../../client/requestFileRunner';
import { wsdlSchemaValidator } from '../../client/requestFileSchema';
import { loadLibxml2Validator } from '../../client/xsd/libxml2Validator';
import { dirname } from 'node:path';
import type { WorkbenchServices } from '../services';
import { secretValues, secretsToHide, targetOfClient } from '../playground/connection';

/** The options of a run over the active connection (starts the sandbox when that is the connection). */
export async function runOptionsFor(services: WorkbenchServices, timeoutMs: number): Promise<RunOptions> {
	const client = await services.activeClient();
	const connection = await secretValues(services);
	const secrets = await secretsToHide(services, connection);
	const target = targetOfClient(client);
	return {
		target,
		connection,
		secrets,
		timeoutMs,
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

/** A run as text for the output channel: each request, its expectations, problems and exchange. */
export function describeRun(fileName: string, results: readonly RequestRunResult[]): string {
	const lines = [`${fileName}`];
	for (const result of results) {
		lines.push(
			'',
			`${result.status.toUpperCase()} ${result.label}${result.setup ? ' (needed by the selected request)' : ''}`,
		);
		for (const outcome of result.outcomes) {
			lines.push(`  ${outcome.passed ? 'ok    ' : 'FAILED'} expect: ${outcome.text}`);
			if (!outcome.passed) {
				lines.push(`         expected: ${outcome.expected}`, `         actual:   ${outcome.actual}`);
			}
		}
		for (const [name, value] of Object.entries(result.captured)) lines.push(`  captured ${name} = ${value}`);
		for (const problem of result.problems) lines.push(`  ${problem}`);
		if (result.exchange) lines.push('', formatExchange(result.exchange));
	}
	return `${lines.join('\n')}\n`;
}
