/**
 * Turns sandbox failure scenarios on and off for a request file's `scenario:` lines, through the
 * sandbox's control endpoint (`/__admin/scenarios`, docs/scenarios.md), over the one transport.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Dispatcher } from 'undici';
import { controlCall, controlRefusal } from './controlEndpoint';

/** What the runner needs to turn scenarios on and off. */
export interface ScenarioSwitch {
	/** Turns the scenario on (a library name or a .json file); resolves with its name, rejects with what to do. */
	on(spec: string, signal?: AbortSignal): Promise<string>;
	/** Turns a scenario off again. */
	off(name: string, signal?: AbortSignal): Promise<void>;
}

/**
 * The switch of a sandbox at `baseUrl`; `.json` specs are read relative to `folder` (the request
 * file's folder) and sent whole, anything else is a library name.
 */
export function controlEndpointScenarios(
	baseUrl: string,
	folder: string | undefined,
	dispatcher?: Dispatcher,
): ScenarioSwitch {
	const url = `${baseUrl.replace(/\/+$/, '')}/__admin/scenarios`;
	const call = (method: string, target: string, body: string, signal?: AbortSignal) =>
		controlCall(method, target, body, { signal, dispatcher });
	const explain = (status: number, error: string | undefined, target: string): Error =>
		controlRefusal(status, error, target, 'scenarios');
	return {
		async on(spec, signal) {
			let body: string;
			let name = spec;
			if (/\.json$/i.test(spec)) {
				const path = isAbsolute(spec) || folder === undefined ? spec : join(folder, spec);
				try {
					body = await readFile(path, 'utf8');
				} catch (error) {
					throw new Error(
						`cannot read the scenario file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
						{ cause: error },
					);
				}
				try {
					name = String((JSON.parse(body) as { name?: unknown }).name ?? spec);
				} catch {
					// The sandbox says what is wrong with the file.
				}
			} else {
				body = JSON.stringify({ name: spec });
			}
			const answer = await call('POST', url, body, signal);
			if (answer.status !== 200) {
				// The sandbox names the body; the reader knows it as the file.
				throw explain(answer.status, answer.error?.replace(/^the request body: /, `${spec}: `), url);
			}
			return name;
		},
		async off(name, signal) {
			const target = `${url}/${encodeURIComponent(name)}`;
			const answer = await call('DELETE', target, '', signal);
			// 404 with an error: it was off already.
			if (answer.status !== 200 && !(answer.status === 404 && answer.error !== undefined)) {
				throw explain(answer.status, answer.error, target);
			}
		},
	};
}
